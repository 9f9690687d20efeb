extension JSON {
    /// The default deepest nesting of arrays and objects `JSON(parsing:)` accepts.
    public static let defaultMaxDepth = 256

    /// Parses JSON text strictly by RFC 8259: one value with optional surrounding
    /// whitespace, well-formed UTF-8, escapes including surrogate pairs (an unpaired
    /// surrogate is an error), and the RFC's number grammar. Numbers without fraction or
    /// exponent that fit in `Int` become `.int`, others `.double`. A repeated object key
    /// keeps its first position and its last value.
    /// - Parameter maxDepth: The deepest nesting of arrays and objects accepted.
    /// - Throws: `JSONParseError` with the byte offset of the first problem.
    public init(parsing bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) throws(JSONParseError) {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        self = try parser.parseDocument()
    }

    /// Parses JSON text given as a string; see `init(parsing:maxDepth:)` for bytes.
    /// - Throws: `JSONParseError` with the byte offset of the first problem.
    public init(parsing text: String, maxDepth: Int = JSON.defaultMaxDepth) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }
}

/// A recursive-descent RFC 8259 parser over bytes.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var position = 0
    var depth = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else {
            throw JSONParseError(code: .trailingCharacters, message: "Unexpected data after the JSON value", offset: position)
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func unexpected() -> JSONParseError {
        guard position < bytes.count else {
            return JSONParseError(code: .unexpectedEnd, message: "Unexpected end of input", offset: position)
        }
        let byte = bytes[position]
        let found = byte < 0x80 ? "character \(Lexer.printScalar(UInt32(byte)))" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return JSONParseError(code: .unexpectedCharacter, message: "Unexpected \(found)", offset: position)
    }

    mutating func parseValue() throws(JSONParseError) -> JSON {
        guard position < bytes.count else { throw unexpected() }
        switch bytes[position] {
        case 0x7B: return try parseObject()
        case 0x5B: return try parseArray()
        case 0x22: return .string(try parseString())
        case 0x74: return try parseLiteral("true", .bool(true))
        case 0x66: return try parseLiteral("false", .bool(false))
        case 0x6E: return try parseLiteral("null", .null)
        case 0x2D, 0x30...0x39: return try parseNumber()
        default: throw unexpected()
        }
    }

    /// `true`, `false` or `null`; an error points at the first byte that differs.
    mutating func parseLiteral(_ literal: String, _ value: JSON) throws(JSONParseError) -> JSON {
        for expected in literal.utf8 {
            guard position < bytes.count, bytes[position] == expected else { throw unexpected() }
            position += 1
        }
        return value
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw JSONParseError(code: .tooDeep, message: "Nesting deeper than \(maxDepth) levels", offset: position)
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        position += 1
        var items: [JSON] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == 0x5D {
            position += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw unexpected() }
            switch bytes[position] {
            case 0x2C: position += 1
            case 0x5D:
                position += 1
                return .array(items)
            default: throw unexpected()
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == 0x7D {
            position += 1
            return .object(OrderedMap())
        }
        // Room for the few members most objects have (a request's `query` and `variables`, a
        // variables object), so they are not copied as they grow one by one.
        var object = OrderedMap<String, JSON>(minimumCapacity: 4)
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == 0x22 else { throw unexpected() }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == 0x3A else { throw unexpected() }
            position += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            guard position < bytes.count else { throw unexpected() }
            switch bytes[position] {
            case 0x2C: position += 1
            case 0x7D:
                position += 1
                return .object(object)
            default: throw unexpected()
            }
        }
    }

    /// RFC 8259 section 6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = position
        var isInteger = true
        if bytes[position] == 0x2D { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw invalidNumber(start) }
        if bytes[position] == 0x30 {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) { throw invalidNumber(start) }
        } else {
            skipDigits()
        }
        if position < bytes.count && bytes[position] == 0x2E {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw invalidNumber(start) }
            skipDigits()
        }
        if position < bytes.count && bytes[position] | 0x20 == 0x65 {
            isInteger = false
            position += 1
            if position < bytes.count && (bytes[position] == 0x2B || bytes[position] == 0x2D) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw invalidNumber(start) }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw invalidNumber(start) }
        return .double(double)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always)
    mutating func skipDigits() {
        while position < bytes.count && isDigit(bytes[position]) { position += 1 }
    }

    func invalidNumber(_ start: Int) -> JSONParseError {
        JSONParseError(code: .invalidNumber, message: "Invalid number", offset: start)
    }

    func invalidString(_ message: String, at offset: Int) -> JSONParseError {
        JSONParseError(code: .invalidString, message: message, offset: offset)
    }

    /// A string starting at the opening quote; copies runs of plain bytes in bulk.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        var chunkStart = position
        var value: [UInt8] = []
        var escaped = false
        while position < bytes.count {
            position = plainASCIIEnd(from: position)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case 0x22:
                let result: String
                if escaped {
                    value.append(contentsOf: bytes[chunkStart..<position])
                    result = String(decoding: value, as: UTF8.self)
                } else {
                    result = String(decoding: bytes[chunkStart..<position], as: UTF8.self)
                }
                position += 1
                return result
            case 0x5C:
                if !escaped {
                    // Room for the rest of the input (the most the string can take) up to 8 KiB:
                    // a query text with a line break every few dozen bytes grew the buffer
                    // several times. Longer strings grow from there.
                    value.reserveCapacity(min(bytes.count - chunkStart, 8192))
                    escaped = true
                }
                value.append(contentsOf: bytes[chunkStart..<position])
                try parseEscape(into: &value)
                chunkStart = position
            case 0x00...0x1F:
                throw invalidString("Unescaped control character in string", at: position)
            default:
                guard let (_, length) = UTF8Decoding.decodeScalar(bytes, at: position) else {
                    throw JSONParseError(code: .invalidUTF8, message: "Invalid UTF-8", offset: position)
                }
                position += length
            }
        }
        throw unexpected()
    }

    /// The end of the run of string bytes from `start` that need no look (printable ASCII other
    /// than `"` and `\\`): the bulk of most strings, a query text above all, skipped eight bytes
    /// at a time, then byte by byte up to the first that needs a look.
    private func plainASCIIEnd(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            if let base = UnsafeRawPointer(buffer.baseAddress) {
                while index + 8 <= buffer.count, Self.isPlainASCII(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                }
            }
            while index < buffer.count {
                let byte = buffer[index]
                guard byte >= 0x20, byte < 0x80, byte != 0x22, byte != 0x5C else { break }
                index += 1
            }
            return index
        }
    }

    /// Whether the eight bytes of `chunk` are all plain ASCII: none non-ASCII, none to escape.
    @inline(__always)
    private static func isPlainASCII(_ chunk: UInt64) -> Bool {
        (chunk & JSONChunk.highBits) | JSONChunk.escapes(in: chunk) == 0
    }

    mutating func parseEscape(into value: inout [UInt8]) throws(JSONParseError) {
        let start = position
        guard position + 1 < bytes.count else {
            position += 1
            throw unexpected()
        }
        let simple: UInt8? = UTF8Decoding.simpleEscape(bytes[position + 1])
        if let simple {
            value.append(simple)
            position += 2
            return
        }
        guard bytes[position + 1] == 0x75, let code = hex4(at: position + 2) else {
            throw invalidString("Invalid escape sequence", at: start)
        }
        position += 6
        var scalar = code
        if code >= 0xD800 && code <= 0xDBFF {
            guard position + 1 < bytes.count, bytes[position] == 0x5C, bytes[position + 1] == 0x75,
                let low = hex4(at: position + 2), low >= 0xDC00 && low <= 0xDFFF
            else {
                throw invalidString("Unpaired surrogate escape", at: start)
            }
            position += 6
            scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if code >= 0xDC00 && code <= 0xDFFF {
            throw invalidString("Unpaired surrogate escape", at: start)
        }
        value.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
    }

    func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            guard let digit = Lexer.hexValue(bytes[index]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
