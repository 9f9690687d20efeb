/// Reads the elements of one RFC 7239 `Forwarded` field line, and the `for` node of each:
/// `for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"`.
///
/// Elements are separated by commas, parameters by semicolons; values are tokens or quoted
/// strings (with backslash escapes), so a comma inside quotes does not end an element. Lenient
/// where senders commonly are: whitespace around separators, unquoted values with characters a
/// token lacks (`for=[::1]`). Parameter names compare case-insensitively.
struct ForwardedElements {
    private let bytes: [UInt8]
    private var index = 0

    /// The node of each element's `for` in `line`, left to right; nil for an element without
    /// exactly one well-formed `for`. Returns nil when the line breaks the grammar.
    static func nodes(in line: String) -> [ForwardedNode?]? {
        elements(in: line)?.map { parameters in
            let forValues = parameters.filter { $0.name == "for" }
            guard forValues.count == 1 else { return nil }
            return ForwardedNode(forValues[0].value[...], allowsBareIPv6: false)
        }
    }

    /// Each element's parameters in `line`, left to right, names lowercased, values unquoted.
    /// Returns nil when the line breaks the grammar.
    static func elements(in line: String) -> [[(name: String, value: String)]]? {
        var reader = ForwardedElements(bytes: Array(line.utf8))
        return reader.parse()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func parse() -> [[(name: String, value: String)]]? {
        var nodes: [[(name: String, value: String)]] = []
        while true {
            skipSpaces()
            if index == bytes.count { return nodes }
            // Empty list elements (`a, , b`) are allowed by the list syntax and name no hop.
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard let node = element() else { return nil }
            nodes.append(node)
            skipSpaces()
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }
    }

    /// One element: `pair *( ";" pair )`.
    /// - Returns: its parameters, or nil when the element breaks the grammar.
    private mutating func element() -> [(name: String, value: String)]? {
        var parameters: [(name: String, value: String)] = []
        while true {
            skipSpaces()
            let nameStart = index
            while index < bytes.count, ASCII.isTokenChar(bytes[index]) { index += 1 }
            guard index > nameStart else { return nil }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            skipSpaces()
            guard let value = value() else { return nil }
            parameters.append((name, value))
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { break }
            index += 1
        }
        return parameters
    }

    /// A quoted string (unescaped) or an unquoted run up to a separator.
    private mutating func value() -> String? {
        guard index < bytes.count else { return nil }
        guard bytes[index] == UInt8(ascii: "\"") else {
            let start = index
            while index < bytes.count, !Self.endsUnquotedValue(bytes[index]) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }
        index += 1
        var text: [UInt8] = []
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                text.append(bytes[index + 1])
                index += 2
            default:
                text.append(bytes[index])
                index += 1
            }
        }
        return nil
    }

    private static func endsUnquotedValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\""): true
        default: false
        }
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }
}
