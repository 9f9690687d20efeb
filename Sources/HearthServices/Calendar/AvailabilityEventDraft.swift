import FoundationEssentials
import HearthDomain

/// What `createAvailabilityEvent` is given (FR-64); checked by ``AvailabilityService``.
public struct AvailabilityEventDraft: Sendable {
    /// 1–100 characters after trimming.
    public var title: String
    /// A timed event's start and end (exclusive); absent for an all-day one.
    public var startsAt: Date?
    /// See ``startsAt``.
    public var endsAt: Date?
    /// An all-day event's first and last day (inclusive); absent for a timed one.
    public var startsOn: CalendarDay?
    /// See ``startsOn``.
    public var endsOn: CalendarDay?
    /// The IANA zone whose wall clock it keeps; the owner's when absent.
    public var timeZone: String?
    /// RRULE and EXDATE lines (RFC 5545, no DTSTART); absent for a single event.
    public var recurrence: String?
    /// Busy when absent.
    public var availability: AvailabilityEventRecord.Availability?
    /// The id the client made for it offline (`avl_<uuid>`, ``ClientIDs``); the server makes one when absent.
    public var id: String?

    /// Creates a draft.
    public init(
        title: String, startsAt: Date? = nil, endsAt: Date? = nil, startsOn: CalendarDay? = nil, endsOn: CalendarDay? = nil,
        timeZone: String? = nil, recurrence: String? = nil, availability: AvailabilityEventRecord.Availability? = nil, id: String? = nil
    ) {
        self.title = title
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.startsOn = startsOn
        self.endsOn = endsOn
        self.timeZone = timeZone
        self.recurrence = recurrence
        self.availability = availability
        self.id = id
    }
}

/// What `updateAvailabilityEvent` changes: each field given replaces the stored one. Giving
/// `startsAt`/`endsAt` makes the event timed, `startsOn`/`endsOn` all-day (the other pair is
/// dropped); a `recurrence` of `.some(nil)` (explicit `null`) makes it a single event.
public struct AvailabilityEventChanges: Sendable {
    /// A new title.
    public var title: String?
    /// A new timed span (both or neither).
    public var startsAt: Date?
    /// See ``startsAt``.
    public var endsAt: Date?
    /// A new all-day span (both or neither).
    public var startsOn: CalendarDay?
    /// See ``startsOn``.
    public var endsOn: CalendarDay?
    /// A new zone.
    public var timeZone: String?
    /// New recurrence lines; `.some(nil)` removes the recurrence.
    public var recurrence: String??
    /// Busy or free.
    public var availability: AvailabilityEventRecord.Availability?

    /// Creates changes.
    public init(
        title: String? = nil, startsAt: Date? = nil, endsAt: Date? = nil, startsOn: CalendarDay? = nil, endsOn: CalendarDay? = nil,
        timeZone: String? = nil, recurrence: String?? = nil, availability: AvailabilityEventRecord.Availability? = nil
    ) {
        self.title = title
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.startsOn = startsOn
        self.endsOn = endsOn
        self.timeZone = timeZone
        self.recurrence = recurrence
        self.availability = availability
    }
}
