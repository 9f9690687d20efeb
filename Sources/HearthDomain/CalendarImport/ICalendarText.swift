/// TEXT values of RFC 5545 §3.3.11: backslash escapes for new lines, commas, semicolons and
/// backslashes.
enum ICalendarText {
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

    /// `text` escaped for a TEXT value.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
