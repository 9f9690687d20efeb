/// Byte classes of the ASCII text formats HearthDomain reads byte by byte (TZ strings, iCalendar).
extension UInt8 {
    var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isASCIILetterOrDigit: Bool {
        isASCIIDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "z"))
    }
    var isASCIIWhitespace: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\r") || self == UInt8(ascii: "\n")
    }
}
