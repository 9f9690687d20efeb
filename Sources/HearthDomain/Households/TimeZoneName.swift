import Support

/// An IANA time zone name (`Europe/Paris`), checked against the system's time zone database
/// (``TimeZoneDatabase``).
public struct TimeZoneName: Sendable, Hashable, CustomStringConvertible {
    /// The name as given, without surrounding white space.
    public let name: String

    /// The name when it is a zone the database knows.
    /// - Throws: ``FieldProblem`` `UNKNOWN_VALUE` for `field`.
    public init(_ text: String, field: String) throws(FieldProblem) {
        let trimmed = text.trimmingWhitespace()
        // Only region names and UTC: offsets ("+01:00") and abbreviations ("CET") are not
        // places, and their meaning changes with daylight saving.
        guard trimmed.contains("/") || trimmed == "UTC", TimeZoneDatabase.contains(trimmed) else {
            throw FieldProblem(field: field, reason: .unknownValue, message: "Choose a time zone such as Europe/Paris.")
        }
        name = trimmed
    }

    /// UTC, which needs no database.
    public static let utc = TimeZoneName(trusted: "UTC")

    private init(trusted name: String) {
        self.name = name
    }

    /// The name.
    public var description: String { name }
}
