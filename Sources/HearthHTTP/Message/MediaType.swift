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
}
