import FoundationEssentials

/// One occurrence of an imported event in a time range: a single event, one of a series
/// (RRULE and RDATE, less EXDATE), or an override of one (RECURRENCE-ID).
public struct CalendarOccurrence: Sendable, Hashable {
    /// The event's UID.
    public let uid: String
    /// The RECURRENCE-ID of the event it comes from as written, empty unless that event is an
    /// override: with ``uid``, which event of its calendar it is (``CalendarEvent/recurrenceKey``).
    public let recurrenceKey: String
    /// The title.
    public let summary: String
    /// The location, when given.
    public let location: String?
    /// When it starts: for a whole-day event, the start of its first day in the reader's zone.
    public let start: Date
    /// When it ends (not before ``start``).
    public let end: Date
    /// Whether it spans whole days.
    public let isAllDay: Bool
    /// Whether it occupies time (TRANSP is not TRANSPARENT).
    public let isBusy: Bool
    /// For a whole-day event, its first day; nil otherwise.
    public let firstDay: CalendarDay?
    /// For a whole-day event, the day after its last (as DTEND writes it); nil otherwise.
    public let endDay: CalendarDay?
    /// For an occurrence of a series (or its override), the start the series gives it; nil
    /// for a single event.
    public let recurrenceID: Date?
}

/// A span of time in which someone is busy.
public struct BusyPeriod: Sendable, Hashable {
    /// Its start.
    public let start: Date
    /// Its end, after ``start``.
    public let end: Date

    /// The periods the busy occurrences cover, sorted, with overlapping or touching ones merged;
    /// transparent and zero-length occurrences cover none.
    public static func merging(_ occurrences: [CalendarOccurrence]) -> [BusyPeriod] {
        let busy = occurrences.filter { $0.isBusy && $0.end > $0.start }.sorted { $0.start < $1.start }
        var periods: [BusyPeriod] = []
        for occurrence in busy {
            if let last = periods.last, occurrence.start <= last.end {
                periods[periods.count - 1] = BusyPeriod(start: last.start, end: max(last.end, occurrence.end))
            } else {
                periods.append(BusyPeriod(start: occurrence.start, end: occurrence.end))
            }
        }
        return periods
    }
}
