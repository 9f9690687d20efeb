import FoundationEssentials
import HearthDomain

/// What the `calendar` query answers (FR-59): the days of a range in the viewer's time zone that
/// have something on them, each with its entries in order.
public struct CalendarView: Sendable {
    /// The viewer's time zone, which the days are days of.
    public var timeZone: TimeZoneRules
    /// The household whose chores are shown; `nil` for personal chores only.
    public var householdID: String?
    /// The days with at least one entry, in order.
    public var days: [Day]

    /// One day and what is on it.
    public struct Day: Sendable {
        /// The day, in ``CalendarView/timeZone``.
        public var date: CalendarDay
        /// Its entries, by start (all-day ones first), then id.
        public var entries: [CalendarEntry]
    }
}

/// One thing on a calendar day. Reminders (FR-49) and imported or connected calendars' events
/// (FR-61, FR-62) join as cases of their own when those areas arrive, with a member of the schema's
/// `CalendarEntry` union each; ``CalendarService`` is where they are read and placed.
public enum CalendarEntry: Sendable {
    /// A chore instance due that day (stored or still to be planned).
    case chore(MyChore)
    /// An occurrence of an availability event of the viewer's that covers (part of) that day.
    case availability(AvailabilityEventRecord, AvailabilityTiming.Occurrence)

    /// When it starts: the due time, or the occurrence's start.
    public var start: Date {
        switch self {
        case .chore(let chore): chore.instance.dueAt
        case .availability(_, let occurrence): occurrence.start
        }
    }

    /// The id that orders entries starting together.
    var orderID: String {
        switch self {
        case .chore(let chore): chore.instance.id
        case .availability(let event, _): event.id
        }
    }
}
