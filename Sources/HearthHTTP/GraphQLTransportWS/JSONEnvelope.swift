// Pure Swift (no Glibc, no Foundation).

/// A minimal JSON reader for protocol envelopes such as `{"type":"subscribe","id":"1","payload":{…}}`: it reads
/// the top-level object's string members and keeps every other member's value as its raw, validated JSON
/// bytes, so the layer above (the GraphQL server) decodes payloads with its own JSON and HearthHTTP stays free
/// of GraphQL. Input is bounded by the WebSocket message limit; nesting is bounded by `maxDepth`.
struct JSONEnvelope {
    /// One member's value.
    enum Value: Equatable {
        case string(String)
        /// Any other JSON value (object, array, number, literal), as its exact bytes.
        case raw([UInt8], isObject: Bool, isNull: Bool)
    }

    /// The members of the top-level object (a repeated key keeps its last value, as JSON.parse does).
    private(set) var members: [String: Value] = [:]

    static let maxDepth = 64

    /// Parses `bytes` as one JSON object; nil when it is not well-formed JSON or not an object.
    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{") else { return nil }
        reader.index += 1
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipWhitespace()
                guard let key = reader.readString() else { return nil }
                reader.skipWhitespace()
                guard reader.peek() == UInt8(ascii: ":") else { return nil }
                reader.index += 1
                reader.skipWhitespace()
                if reader.peek() == UInt8(ascii: "\"") {
                    guard let value = reader.readString() else { return nil }
                    members[key] = .string(value)
                } else {
                    let start = reader.index
                    guard reader.skipValue(depth: 1) else { return nil }
                    let raw = Array(bytes[start..<reader.index])
                    members[key] = .raw(raw, isObject: raw.first == UInt8(ascii: "{"), isNull: raw == Array("null".utf8))
                }
                reader.skipWhitespace()
                guard let separator = reader.peek() else { return nil }
                reader.index += 1
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else { return nil }
            }
        }
        reader.skipWhitespace()
        guard reader.index == bytes.count else { return nil }
    }

    subscript(key: String) -> Value? { members[key] }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// Reads a string literal at `index`, decoding escapes; nil if malformed.
        mutating func readString() -> String? {
            guard peek() == UInt8(ascii: "\"") else { return nil }
            index += 1
            var runStart = index
            var text = ""
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    text += String(decoding: bytes[runStart..<index], as: UTF8.self)
                    index += 1
                    return text
                case UInt8(ascii: "\\"):
                    text += String(decoding: bytes[runStart..<index], as: UTF8.self)
                    index += 1
                    guard let scalar = readEscape() else { return nil }
                    text.unicodeScalars.append(scalar)
                    runStart = index
                case 0..<0x20:
                    return nil
                default:
                    index += 1
                }
            }
            return nil
        }

        private mutating func readEscape() -> Unicode.Scalar? {
            guard let byte = peek() else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let high = readHex4() else { return nil }
                if (0xD800..<0xDC00).contains(high) {
                    guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                    index += 2
                    guard let low = readHex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                return Unicode.Scalar(high)
            default:
                return nil
            }
        }

        private mutating func readHex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// Skips one well-formed JSON value.
        mutating func skipValue(depth: Int) -> Bool {
            guard depth <= JSONEnvelope.maxDepth, let byte = peek() else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                return readString() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                index += 1
                skipWhitespace()
                if peek() == close {
                    index += 1
                    return true
                }
                while true {
                    skipWhitespace()
                    if isObject {
                        guard readString() != nil else { return false }
                        skipWhitespace()
                        guard peek() == UInt8(ascii: ":") else { return false }
                        index += 1
                        skipWhitespace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipWhitespace()
                    guard let separator = peek() else { return false }
                    index += 1
                    if separator == close { return true }
                    guard separator == UInt8(ascii: ",") else { return false }
                }
            case UInt8(ascii: "t"): return skipLiteral("true")
            case UInt8(ascii: "f"): return skipLiteral("false")
            case UInt8(ascii: "n"): return skipLiteral("null")
            default: return skipNumber()
            }
        }

        private mutating func skipLiteral(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
            index += count
            return true
        }

        private mutating func skipNumber() -> Bool {
            let start = index
            if peek() == UInt8(ascii: "-") { index += 1 }
            guard let first = peek(), isDigit(first) else { return false }
            index += 1
            if first != UInt8(ascii: "0") { while let byte = peek(), isDigit(byte) { index += 1 } }
            if peek() == UInt8(ascii: ".") {
                index += 1
                guard let byte = peek(), isDigit(byte) else { return false }
                while let byte = peek(), isDigit(byte) { index += 1 }
            }
            if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                index += 1
                if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
                guard let digit = peek(), isDigit(digit) else { return false }
                while let byte = peek(), isDigit(byte) { index += 1 }
            }
            return index > start
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }

    /// Appends `text` as a JSON string literal.
    static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [0x5C, 0x22]
            case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
