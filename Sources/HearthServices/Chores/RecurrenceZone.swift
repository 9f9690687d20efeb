import HearthDomain

/// The one place a stored IANA zone name becomes the ``TimeZoneRules`` recurrence rules are read
/// in (``ChoreSchedule/recurrence(_:timeZone:field:)``).
enum RecurrenceZone {
    /// The rules of zone `name` (names are checked when households and users store them); UTC
    /// when the system's database no longer has it.
    static func timeZone(named name: String) -> TimeZoneRules {
        TimeZoneRules.named(name) ?? .utc
    }
}
