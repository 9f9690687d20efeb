/// Recognizing and redacting PostgreSQL connection strings.
public enum PostgresURL {
    /// Whether `value` names a PostgreSQL server (`postgres://…` or `postgresql://…`) rather
    /// than an SQLite file path.
    public static func isPostgres(_ value: String) -> Bool {
        let lowered = value.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// `url` with any password replaced by `***`: the one of the user-information part
    /// (`postgres://user:secret@host`) and `password=` parameters (`?password=secret`,
    /// `key=value` strings).
    public static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.firstRange(of: "://") {
            let authorityEnd = text[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? text.endIndex
            if let at = text[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = text[scheme.upperBound..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: "password=") {
            let isParameterStart = range.lowerBound == rest.startIndex
                || ["?", "&", " "].contains(rest[rest.index(before: range.lowerBound)])
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            guard isParameterStart else { continue }
            let end = rest.firstIndex(where: { $0 == "&" || $0 == " " }) ?? rest.endIndex
            result += "***"
            rest = rest[end...]
        }
        return result + rest
    }
}
