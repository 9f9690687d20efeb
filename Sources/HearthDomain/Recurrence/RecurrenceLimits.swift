/// The bounds a recurrence text must stay within, so that parsing and storing one costs little
/// whatever a client sends. Callers that expose recurrences (the chores service) make them
/// configurable; the defaults admit what calendar apps and rrule.js write for a chore.
public struct RecurrenceLimits: Sendable, Hashable {
    /// The longest text accepted, in UTF-8 bytes. Default 4 KiB: a DTSTART, an RRULE with
    /// every supported part, and about 200 EXDATE values.
    public var maximumTextLength: Int
    /// The most EXDATE values accepted, over all EXDATE lines. Default 256.
    public var maximumExceptionDates: Int

    public init(maximumTextLength: Int = 4096, maximumExceptionDates: Int = 256) {
        self.maximumTextLength = maximumTextLength
        self.maximumExceptionDates = maximumExceptionDates
    }

    /// No bounds: for text stored once it passed the limits in force when it was saved, which
    /// must still read after an operator lowers them.
    public static let unlimited = RecurrenceLimits(maximumTextLength: .max, maximumExceptionDates: .max)
}
