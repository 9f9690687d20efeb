/// Writes JSON text straight into a byte buffer, one token at a time, so that a producer
/// (the executor, `JSON.serialized`) never builds an intermediate tree.
///
/// The writer inserts commas, colons and, when `pretty`, newlines with two-space
/// indentation; the caller only says what comes next:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("data"); writer.beginObject(); writer.key("n"); writer.int(1); writer.endObject()
/// writer.endObject()
/// writer.bytes // {"data":{"n":1}}
/// ```
///
/// Strings are escaped as `JSON.stringify` does (`\"`, `\\`, `\b \f \n \r \t`, other control
/// characters as `\u00XX`; everything else, non-ASCII included, passes through as UTF-8).
/// Doubles are printed as `JSON.stringify` prints numbers (shortest round-trip digits, `1`
/// for `1.0`, `1e+21`); NaN and infinities, which JSON cannot represent, become `null`.
public struct JSONWriter: Sendable {
    /// The JSON text written so far.
    public private(set) var bytes: [UInt8]
    /// Whether to break lines and indent.
    public let pretty: Bool
    private var depth = 0
    /// Whether the current container already has an element (so the next needs a comma).
    private var hasElement = false
    /// Whether a key was just written (so the next value follows it directly).
    private var afterKey = false

    /// Creates a writer.
    /// - Parameters:
    ///   - pretty: Break lines and indent by two spaces, for people.
    ///   - capacity: Bytes to reserve up front.
    public init(pretty: Bool = false, capacity: Int = 256) {
        self.pretty = pretty
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Moves the bytes out, leaving the writer empty.
    public mutating func takeBytes() -> [UInt8] {
        defer {
            bytes = []
            depth = 0
            hasElement = false
            afterKey = false
        }
        return bytes
    }

    @inline(__always)
    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<depth { bytes.append(0x20); bytes.append(0x20) }
    }

    /// Writes what precedes a value or key: a comma and, when pretty, a line break.
    @inline(__always)
    private mutating func prepare() {
        if afterKey {
            afterKey = false
            return
        }
        if hasElement { bytes.append(0x2C) }
        if pretty && depth > 0 { newline() }
        hasElement = true
    }

    /// Starts an object (`{`).
    public mutating func beginObject() {
        prepare()
        bytes.append(0x7B)
        depth += 1
        hasElement = false
    }

    /// Ends the current object (`}`).
    public mutating func endObject() { end(0x7D) }

    /// Starts an array (`[`).
    public mutating func beginArray() {
        prepare()
        bytes.append(0x5B)
        depth += 1
        hasElement = false
    }

    /// Ends the current array (`]`).
    public mutating func endArray() { end(0x5D) }

    private mutating func end(_ bracket: UInt8) {
        depth -= 1
        if pretty && hasElement { newline() }
        bytes.append(bracket)
        hasElement = true
    }

    /// Writes an object key; the next call writes its value.
    public mutating func key(_ key: String) {
        prepare()
        writeEscaped(key)
        bytes.append(0x3A)
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        prepare()
        writeEscaped(value)
    }

    /// Writes an integer.
    public mutating func int(_ value: Int) {
        prepare()
        writeDecimal(value)
    }

    /// Writes a double as `JSON.stringify` would; non-finite values become `null`.
    public mutating func double(_ value: Double) {
        prepare()
        guard value.isFinite else {
            append("null")
            return
        }
        // Below 2^53 every integral double is exactly an Int; -0.0 prints as 0, as in JavaScript.
        // (Int(_:) truncates without libm, which this module does not link.)
        if value.magnitude < 9_007_199_254_740_992, Double(Int(value)) == value {
            writeDecimal(Int(value))
        } else {
            // Swift's description has the same shortest digits; without an exponent it is
            // also laid out as JavaScript would (Swift uses exponents in a subset of the
            // cases JavaScript does), so only exponent forms need reformatting.
            let description = value.description.utf8
            if description.contains(0x65) {
                bytes.append(contentsOf: JSONWriter.javaScriptNumber(value).utf8)
            } else if description.last == 0x30 && description.dropLast().last == 0x2E {
                bytes.append(contentsOf: description.dropLast(2)) // 2^53 prints as "9007199254740992.0"
            } else {
                bytes.append(contentsOf: description)
            }
        }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        prepare()
        if value { append("true") } else { append("false") }
    }

    /// Writes `null`.
    public mutating func null() {
        prepare()
        append("null")
    }

    /// Writes bytes that already are one complete, valid JSON value (e.g. a cached fragment)
    /// in the position of a value. The writer does not check them.
    public mutating func rawValue(_ json: some Sequence<UInt8>) {
        prepare()
        bytes.append(contentsOf: json)
    }

    /// Writes a whole value.
    public mutating func value(_ value: JSON) {
        switch value {
        case .null: null()
        case .bool(let boolean): bool(boolean)
        case .int(let integer): int(integer)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let array):
            beginArray()
            for element in array { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for index in object.storedKeys.indices {
                key(object.storedKeys[index])
                self.value(object.storedValues[index])
            }
            endObject()
        }
    }

    // MARK: - Encoding

    /// Appends literal ASCII without materialising an array.
    @inline(__always)
    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func writeDecimal(_ value: Int) {
        if value == 0 {
            bytes.append(0x30)
            return
        }
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            }
            bytes.append(contentsOf: buffer[index...])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func writeEscaped(_ string: String) {
        bytes.append(0x22)
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(0x5C)
                switch byte {
                case 0x22: bytes.append(0x22)
                case 0x5C: bytes.append(0x5C)
                case 0x08: bytes.append(0x62)
                case 0x0C: bytes.append(0x66)
                case 0x0A: bytes.append(0x6E)
                case 0x0D: bytes.append(0x72)
                case 0x09: bytes.append(0x74)
                default:
                    append("u00")
                    bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
                    bytes.append(JSONWriter.hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(0x22)
    }

    /// Formats a finite double by ECMAScript's Number::toString from the shortest
    /// round-trip digits, which Swift's `description` also produces.
    static func javaScriptNumber(_ value: Double) -> String {
        if value == 0 { return "0" }
        var text = value.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = Array(integerPart.utf8) + Array(fraction.utf8)
        // value = 0.digits × 10^point
        var point = integerPart.utf8.count + exponent
        while digits.first == 0x30 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == 0x30 { digits.removeLast() }
        let k = digits.count
        let digitText = String(decoding: digits, as: UTF8.self)
        let sign = value < 0 ? "-" : ""
        if k <= point && point <= 21 {
            return sign + digitText + String(repeating: "0", count: point - k)
        }
        if 0 < point && point <= 21 {
            return sign + String(digitText.prefix(point)) + "." + String(digitText.dropFirst(point))
        }
        if -6 < point && point <= 0 {
            return sign + "0." + String(repeating: "0", count: -point) + digitText
        }
        let exponentText = (point - 1 >= 0 ? "+" : "-") + String(abs(point - 1))
        let mantissa = k == 1 ? digitText : String(digitText.prefix(1)) + "." + String(digitText.dropFirst())
        return sign + mantissa + "e" + exponentText
    }
}

extension JSON {
    /// The value as JSON text: compact, or with `pretty` indented by two spaces.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        return writer.takeBytes()
    }

    /// The value as compact JSON text.
    public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }
}
