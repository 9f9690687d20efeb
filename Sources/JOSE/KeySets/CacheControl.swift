/// Reads the freshness lifetime from an HTTP `Cache-Control` header (RFC 9111 §5.2.2), as a
/// private cache of a key set needs it.
public enum CacheControl {
    /// The lifetime in seconds the header allows: 0 when it has `no-store` or `no-cache`
    /// (the response may not be reused without asking again), otherwise `max-age` (plain or
    /// quoted digits, saturating at `Int.max`), or nil when the header sets none or it is
    /// malformed. Directive names are case-insensitive; others are ignored.
    public static func maxAge(_ header: some StringProtocol) -> Int? {
        var maxAge: Int?
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingSpaces().lowercased()
            if name == "no-store" || name == "no-cache" { return 0 }
            guard name == "max-age", parts.count == 2 else { continue }
            var value = Substring(parts[1].trimmingSpaces())
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            maxAge = Int(value) ?? Int.max
        }
        return maxAge
    }
}
