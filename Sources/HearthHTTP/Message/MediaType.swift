// Pure Swift (no Glibc, no Foundation): compiled directly into the HTTP parser fuzz target.

/// Media type checks on `Content-Type`-style header values (RFC 9110 §8.3.1):
/// `type "/" subtype *( OWS ";" OWS parameter )`, the type and subtype case-insensitive.
///
/// Compared over the value's UTF-8 bytes without building substrings: every request with a
/// body asks these questions, some more than once.
public enum MediaType {
    /// Whether the essence of `value` (its type and subtype, before any parameters and
    /// ignoring surrounding spaces and tabs) is `essence`, which must be lowercase.
    public static func essence(of value: String, is essence: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var index = 0
            while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
            let expected = essence.utf8
            guard bytes.count - index >= expected.count else { return false }
            for byte in expected {
                guard ASCII.lowercased(bytes[index]) == byte else { return false }
                index += 1
            }
            while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
            return index == bytes.count || bytes[index] == ASCII.semicolon
        }
    }

    /// The value of the parameter `name` (given in lowercase; matched in any case) of a media
    /// type value, with a quoted-string's quotes and backslash escapes removed (RFC 9110
    /// §5.6.6); `nil` when the value has no such parameter. A `;` inside a quoted value does
    /// not end the parameter.
    public static func parameter(_ name: String, in value: String) -> String? {
        var bytes = Array(value.utf8)[...]
        guard let firstSeparator = bytes.firstIndex(of: ASCII.semicolon) else { return nil }
        bytes = bytes[(firstSeparator + 1)...]
        while !bytes.isEmpty {
            while let first = bytes.first, first == ASCII.space || first == ASCII.tab || first == ASCII.semicolon { bytes = bytes.dropFirst() }
            let nameEnd = bytes.firstIndex { $0 == UInt8(ascii: "=") || $0 == ASCII.semicolon } ?? bytes.endIndex
            let parameterName = bytes[..<nameEnd]
            bytes = bytes[nameEnd...]
            guard bytes.first == UInt8(ascii: "=") else { continue }
            bytes = bytes.dropFirst()
            var parameterValue: [UInt8] = []
            if bytes.first == UInt8(ascii: "\"") {
                bytes = bytes.dropFirst()
                while let byte = bytes.popFirst(), byte != UInt8(ascii: "\"") {
                    parameterValue.append(byte == UInt8(ascii: "\\") ? (bytes.popFirst() ?? byte) : byte)
                }
                bytes = bytes[(bytes.firstIndex(of: ASCII.semicolon) ?? bytes.endIndex)...]
            } else {
                let valueEnd = bytes.firstIndex(of: ASCII.semicolon) ?? bytes.endIndex
                parameterValue = Array(bytes[..<valueEnd])
                while let last = parameterValue.last, last == ASCII.space || last == ASCII.tab { parameterValue.removeLast() }
                bytes = bytes[valueEnd...]
            }
            if parameterName.count == name.utf8.count, zip(parameterName, name.utf8).allSatisfy({ ASCII.lowercased($0) == $1 }) {
                return String(decoding: parameterValue, as: UTF8.self)
            }
        }
        return nil
    }
}
