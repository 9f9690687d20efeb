import HearthDomain

/// The one place a stored IANA zone name becomes the `TimeZoneRules` recurrence rules are read in
/// (``ChoreSchedule/recurrence(_:timeZone:field:)``), so how zones are loaded can change here alone.
enum RecurrenceZone {
    /// The zone named `name` (names are checked when households and users store them); UTC when the
    /// system cannot load it.
    static func timeZone(named name: String) -> TimeZoneRules {
        TimeZoneRules.named(name) ?? .utc
    }
}
