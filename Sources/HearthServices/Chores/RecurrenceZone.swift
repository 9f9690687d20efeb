import FoundationEssentials

/// The one place a stored IANA zone name becomes the `TimeZone` recurrence rules are read in
/// (``ChoreSchedule/recurrence(_:timeZone:field:)``), so how zones are loaded can change here alone.
enum RecurrenceZone {
    /// The zone named `name` (names are checked when households and users store them); UTC when the
    /// system cannot load it.
    static func timeZone(named name: String) -> TimeZone {
        TimeZone(identifier: name) ?? .gmt
    }
}
