/// The bounds an imported calendar file, and a read of its events, stay within, so parsing and
/// expanding cost little whatever a user uploads. The calendar service makes each configurable
/// (README, "Imported calendars").
public struct CalendarFileLimits: Sendable, Hashable {
    /// The largest file accepted, in bytes. Default 2 MiB: a few thousand events with
    /// descriptions.
    public var maximumBytes: Int
    /// The most events (VEVENT components, overrides of one occurrence included) a file may hold.
    /// Default 5,000.
    public var maximumEvents: Int
    /// The most occurrences one read of a time range expands to, over every imported calendar of
    /// the user. Default 5,000: a year of a busy work calendar.
    public var maximumOccurrences: Int

    /// The limits, with the defaults above.
    public init(maximumBytes: Int = 2 << 20, maximumEvents: Int = 5000, maximumOccurrences: Int = 5000) {
        self.maximumBytes = maximumBytes
        self.maximumEvents = maximumEvents
        self.maximumOccurrences = maximumOccurrences
    }
}
