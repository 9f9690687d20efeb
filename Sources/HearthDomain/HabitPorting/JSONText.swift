/// JSON text of the values exports write (RFC 8259): strings escaped as JSON requires, numbers
/// written so they read back as the same `Double`. Exports write JSON record by record as they
/// stream, so they need these pieces rather than an encoder of a whole document.
public enum JSONText {
    /// `text` as a JSON string, quotes included.
    public static func string(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// `text` as a JSON string, or `null`.
    public static func optionalString(_ text: String?) -> String {
        text.map(string) ?? "null"
    }

    /// `value` as a JSON number (its shortest round-tripping form), or `null`; never NaN or infinite in what we store.
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// An object of already-encoded members, in the order given.
    public static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }
}
