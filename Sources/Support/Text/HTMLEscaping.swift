/// Text made safe to place in HTML, as element content or inside a quoted attribute value:
/// `&`, `<`, `>`, `"` and `'` become character references, so a value cannot open or close a
/// tag or an attribute. Shared by the emails' HTML bodies and the server-rendered pages.
public enum HTMLEscaping {
    /// `text` with HTML's special characters replaced by character references.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }
}
