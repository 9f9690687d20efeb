import FoundationEssentials
import Support

/// When an availability event (FR-64) takes place: a timed span or a run of whole days, once or
/// repeated by an RFC 5545 recurrence whose DTSTART is the event's start, in the event's time
/// zone, and the occurrences of that within a range of time.
///
/// - A timed event's occurrences keep its start's wall-clock time in ``timeZone`` across daylight
///   saving changes (as ``RecurrenceRule`` does) and last as long as the first one, in seconds.
/// - An all-day event's occurrences start at the beginning of a local day in ``timeZone`` and
///   cover as many days as the first one; its instants are the local midnights that bound them.
public struct AvailabilityTiming: Sendable, Hashable {
    /// The first occurrence's span.
    public enum Span: Sendable, Hashable {
        /// From `start` (inclusive) to `end` (exclusive), `end` after `start`.
        case timed(start: Date, end: Date)
        /// The days `first` through `last`, both included, `last` not before `first`.
        case allDay(first: CalendarDay, last: CalendarDay)
    }

    /// One occurrence: its instants, and for an all-day event its days.
    public struct Occurrence: Sendable, Hashable {
        /// Its start (an all-day one's: the first day's local midnight).
        public var start: Date
        /// Its end, exclusive (an all-day one's: the local midnight after its last day).
        public var end: Date
        /// An all-day occurrence's first and last day; `nil` for a timed one.
        public var days: ClosedRange<CalendarDay>?
    }

    /// The first occurrence.
    public let span: Span
    /// The zone of the wall clock the event keeps.
    public let timeZone: TimeZoneRules
    /// The repetition, DTSTART being the first occurrence's start; `nil` for a single event.
    public let recurrence: RecurrenceRule?

    /// The timing of `span` in `timeZone`, repeated by `recurrenceLines` when given: an RRULE line
    /// and optional EXDATE lines, without DTSTART (the event's start is its DTSTART).
    /// - Throws: ``RecurrenceError`` naming the line or part at fault.
    public init(span: Span, timeZone: TimeZoneRules, recurrenceLines: String?, limits: RecurrenceLimits = RecurrenceLimits()) throws(RecurrenceError) {
        self.span = span
        self.timeZone = timeZone
        guard let recurrenceLines, !recurrenceLines.isEmpty else {
            recurrence = nil
            return
        }
        let start = "DTSTART;TZID=\(timeZone.identifier):\(ICalendarStamp.local(Self.startInstant(of: span, in: timeZone), in: timeZone))"
        recurrence = try RecurrenceRule.parse(start + "\n" + recurrenceLines, defaultTimeZone: timeZone, limits: limits)
    }

    /// The recurrence's RRULE and EXDATE lines in canonical form (``RecurrenceRule/text`` without
    /// its DTSTART line); `""` for a single event. What is stored, and parses back to the same rule.
    public var recurrenceLines: String {
        guard let text = recurrence?.text else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
    }

    /// The occurrences that overlap `from` ..< `to`, in order, at most `limit`.
    public func occurrences(overlapping from: Date, _ to: Date, limit: Int) -> [Occurrence] {
        let first = occurrence(startingAt: Self.startInstant(of: span, in: timeZone))
        guard let recurrence else { return first.end > from && first.start < to && limit > 0 ? [first] : [] }
        // An occurrence overlapping the range starts before its end, and at most its own length
        // (plus a day of daylight saving slack for all-day ones) before its start.
        let reach = first.end.timeIntervalSince(first.start) + Double(CivilCalendar.secondsPerDay)
        return Array(recurrence.occurrences(after: from.addingTimeInterval(-reach), before: to, limit: .max)
            .lazy.map(occurrence(startingAt:)).filter { $0.end > from }.prefix(limit))
    }

    /// When the first occurrence starts.
    public var firstStart: Date { Self.startInstant(of: span, in: timeZone) }

    /// When the last occurrence ends at the latest; `nil` for a recurrence that goes on
    /// (``RecurrenceRule/lastStart``). With ``firstStart``, what a store filters on to read only
    /// the events that can overlap a range.
    public var lastEnd: Date? {
        guard let recurrence else { return occurrence(startingAt: firstStart).end }
        return recurrence.lastStart.map { occurrence(startingAt: max($0, firstStart)).end }
    }

    /// The occurrence whose start is the recurrence's instant `start`.
    private func occurrence(startingAt start: Date) -> Occurrence {
        switch span {
        case .timed(let first, let end):
            return Occurrence(start: start, end: start.addingTimeInterval(end.timeIntervalSince(first)), days: nil)
        case .allDay(let first, let last):
            let day = CalendarDay(containing: start, in: timeZone)
            let lastDay = CalendarDay(dayNumber: day.dayNumber + last.dayNumber - first.dayNumber)
            return Occurrence(
                start: Self.midnight(day, in: timeZone), end: Self.midnight(CalendarDay(dayNumber: lastDay.dayNumber + 1), in: timeZone),
                days: day...lastDay)
        }
    }

    /// The instant the span starts at.
    private static func startInstant(of span: Span, in zone: TimeZoneRules) -> Date {
        switch span {
        case .timed(let start, _): start
        case .allDay(let first, _): midnight(first, in: zone)
        }
    }

    /// The instant `day` begins in `zone` (its first moment, when a transition skips midnight).
    public static func midnight(_ day: CalendarDay, in zone: TimeZoneRules) -> Date {
        var hint = -1
        return Date(timeIntervalSince1970: Double(zone.instant(forLocal: day.dayNumber * CivilCalendar.secondsPerDay, hint: &hint)))
    }
}
