/// An event of a calendar file that was left out while the rest was imported: it uses what the
/// recurrence engine does not expand (an RRULE with FREQ=HOURLY or BYHOUR, an EXRULE, …).
public struct SkippedCalendarEvent: Sendable, Hashable, Codable {
    /// The event's UID, empty when it has none.
    public let uid: String
    /// The line at fault, counting from 1.
    public let line: Int
    /// Why it was left out, naming the line (``RecurrenceError/description``).
    public let reason: String

    /// A skipped event.
    public init(uid: String, line: Int, reason: String) {
        self.uid = uid
        self.line = line
        self.reason = reason
    }
}
