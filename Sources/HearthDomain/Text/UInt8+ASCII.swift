/// Byte classes of the ASCII text formats HearthDomain reads byte by byte (TZ strings, iCalendar).
extension UInt8 {
    var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isASCIILetterOrDigit: Bool {
        isASCIIDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "z"))
    }
    /// The byte with an ASCII lower-case letter made upper-case.
    var asciiUppercased: UInt8 { self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z") ? self - 32 : self }
    var isASCIIWhitespace: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\r") || self == UInt8(ascii: "\n")
    }
}

extension String {
    /// ASCII bytes as text, letters upper-case (names in formats whose names ignore case).
    init(asciiUppercasing bytes: some Collection<UInt8>) {
        self.init(decoding: bytes.map(\.asciiUppercased), as: UTF8.self)
    }
}
