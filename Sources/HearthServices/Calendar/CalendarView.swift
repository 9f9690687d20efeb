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

/// One thing on a calendar day: a chore instance, a reminder of one, an occurrence of an
/// availability event, or of an imported calendar's event (read-only). Connected calendars'
/// events (FR-62) join ``imported(_:)`` through ``ImportedCalendarService``; ``CalendarService`` is
/// where entries are read and placed, each case a member of the schema's `CalendarEntry` union.
public enum CalendarEntry: Sendable {
    /// A chore instance due that day (stored or still to be planned).
    case chore(MyChore)
    /// A reminder of a chore instance (FR-49), at the time it fires (or fired) really (FR-50A/B).
    case reminder(CalendarReminder)
    /// An occurrence of an availability event of the viewer's that covers (part of) that day.
    case availability(AvailabilityEventRecord, AvailabilityTiming.Occurrence)
    /// An occurrence of an event of one of the viewer's imported calendars (FR-61) covering (part of) that day.
    case imported(ImportedOccurrence)

    /// When it starts: the due time, the (real) firing time, or the occurrence's start.
    public var start: Date {
        switch self {
        case .chore(let chore): chore.instance.dueAt
        case .reminder(let reminder): reminder.firesAt
        case .availability(_, let occurrence): occurrence.start
        case .imported(let imported): imported.occurrence.start
        }
    }

    /// The id that orders entries starting together.
    var orderID: String {
        switch self {
        case .chore(let chore): chore.instance.id
        case .reminder(let reminder): reminder.chore.instance.id + "/" + String(reminder.offset.seconds)
        case .availability(let event, _): event.id
        case .imported(let imported): imported.eventID
        }
    }
}

/// A reminder of a chore instance on the calendar: which instance, which offset, when it fires
/// (``CalendarReminders``).
public struct CalendarReminder: Sendable {
    /// The instance it reminds of, with its chore.
    public var chore: MyChore
    /// How long before the due time.
    public var offset: ReminderOffset
    /// What became of it for the viewer; `nil` while it is to come as planned.
    public var outcome: Outcome?

    /// What became of a reminder for the viewer (FR-50A/B).
    public struct Outcome: Sendable, Hashable {
        /// Delivered on time; delayed (delivered later than planned, or waiting to be); skipped.
        public var delivery: NotificationRecord.DeliveryOutcome
        /// What held it back: quiet hours or busy time; `nil` when delivered on time.
        public var cause: ReminderDeferral.Cause?
        /// When it fired, or (delayed and waiting) is to fire; a skipped one's planned time.
        public var at: Date
    }

    /// When it was planned to fire: the due time minus the offset.
    public var plannedAt: Date { chore.instance.dueAt.addingTimeInterval(-TimeInterval(offset.seconds)) }
    /// When it fires or fired really: the planned time, or for one delayed by quiet hours or busy
    /// time the later time it was (or is to be) delivered.
    public var firesAt: Date { outcome?.at ?? plannedAt }
}
