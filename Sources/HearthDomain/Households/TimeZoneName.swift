import FoundationEssentials
import FoundationInternationalization
import Support

/// An IANA time zone name (`Europe/Paris`), checked against the time zone database that
/// Foundation carries (ICU's), so validation does not depend on the host's `tzdata`.
public struct TimeZoneName: Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public let name: String
    /// The zone.
    public let zone: TimeZone

    /// The name when it is a zone the database knows.
    /// - Throws: ``FieldProblem`` `UNKNOWN_VALUE` for `field`.
    public init(_ text: String, field: String) throws(FieldProblem) {
        let trimmed = text.trimmingWhitespace()
        // Only region names and UTC: offsets ("+01:00") and abbreviations ("CET") are not
        // places, and their meaning changes with daylight saving.
        guard trimmed.contains("/") || trimmed == "UTC", trimmed.count <= 64, let zone = TimeZone(identifier: trimmed) else {
            throw FieldProblem(field: field, reason: .unknownValue, message: "Choose a time zone such as Europe/Paris.")
        }
        name = trimmed
        self.zone = zone
    }

    /// UTC.
    public static let utc = try! TimeZoneName("UTC", field: "")

    /// The name.
    public var description: String { name }
}
