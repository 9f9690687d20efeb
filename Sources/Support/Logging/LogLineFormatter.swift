/// Formats log entries as logfmt lines: `ts=… level=… logger=… msg="…" key=value…`.
///
/// Values that contain spaces, quotes, `=` or control characters are quoted and
/// escaped, so one entry is always exactly one line however hostile its content.
public enum LogLineFormatter {
    /// One complete line, ending in a newline.
    public static func format(
        timestamp: WallClock.Instant, level: LogLevel, label: String, message: String, metadata: [String: String]
    ) -> String {
        var line = "ts="
        line.reserveCapacity(96 + message.utf8.count + metadata.count * 24)
        line += timestamp.iso8601
        line += " level="
        line += level.description
        line += " logger="
        appendValue(label, to: &line)
        line += " msg="
        appendValue(message, to: &line)
        for key in metadata.keys.sorted() {
            line += " "
            line += key
            line += "="
            appendValue(metadata[key]!, to: &line)
        }
        line += "\n"
        return line
    }

    /// Appends `value`, quoted and escaped when it is empty or holds a character that would break the line's structure.
    static func appendValue(_ value: String, to line: inout String) {
        let needsQuotes = value.isEmpty || value.utf8.contains { byte in
            byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "\\")
                || byte == 0x7F
        }
        guard needsQuotes else {
            line += value
            return
        }
        line += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                line += "\\u"
                let hex = String(scalar.value, radix: 16)
                line += String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }
}
