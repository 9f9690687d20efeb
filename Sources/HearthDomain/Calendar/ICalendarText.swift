/// RFC 5545 text as calendar files carry it (§3.1, §3.3.11): content lines of at most 75 octets,
/// folded with CRLF and a space, each ending in CRLF, and TEXT values escaped (and, reading an
/// imported file, unescaped).
public struct ICalendarText: Sendable {
    /// The most octets of one physical line, CRLF excluded (RFC 5545 §3.1).
    public static let maximumLineOctets = 75

    /// The lines so far, folded, each ending in CRLF.
    public private(set) var text = ""

    /// An empty text.
    public init() {}

    /// Appends the content line `name` (with its `;`-separated `parameters`) `:` `value`, folded.
    /// The value is written as given: escape TEXT values with ``escaped(_:)``.
    public mutating func line(_ name: String, _ value: String, parameters: [String] = []) {
        let logical = ([name] + parameters).joined(separator: ";") + ":" + value
        var octets = 0
        var first = true
        for character in logical {
            let size = String(character).utf8.count
            // A fold never splits a character (nor a UTF-8 sequence): the line breaks before it.
            if octets + size > Self.maximumLineOctets - (first ? 0 : 1) {
                text += "\r\n "
                octets = 0
                first = false
            }
            text.append(character)
            octets += size
        }
        text += "\r\n"
    }

    /// Opens component `name` (`VCALENDAR`, `VEVENT`, …): the one place its BEGIN line is written.
    public mutating func begin(_ name: String) {
        line("BEGIN", name)
    }

    /// Closes component `name`.
    public mutating func end(_ name: String) {
        line("END", name)
    }

    /// `value` as a TEXT value: backslashes, semicolons and commas escaped, line breaks as `\n`.
    public static func escaped(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// The text `bytes` write, unescaped, cut to `maximumLength` characters; bytes that are not
    /// UTF-8 read as U+FFFD.
    static func unescaped(_ bytes: ArraySlice<UInt8>, maximumLength: Int) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < bytes.endIndex else {
                result.append(byte)
                continue
            }
            let escaped = bytes[index]
            index += 1
            result.append(escaped == UInt8(ascii: "n") || escaped == UInt8(ascii: "N") ? UInt8(ascii: "\n") : escaped)
        }
        let text = String(decoding: result, as: UTF8.self)
        return text.count > maximumLength ? String(text.prefix(maximumLength)) : text
    }
}
