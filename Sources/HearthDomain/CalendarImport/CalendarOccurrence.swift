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

    /// A period from `start` to `end`.
    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    /// The periods the busy occurrences cover, sorted, with overlapping or touching ones merged;
    /// transparent and zero-length occurrences cover none.
    public static func merging(_ occurrences: [CalendarOccurrence]) -> [BusyPeriod] {
        merging(occurrences.filter(\.isBusy).map { BusyPeriod(start: $0.start, end: $0.end) })
    }

    /// `periods` (of any sources, in any order) sorted, with overlapping or touching ones merged;
    /// zero-length ones dropped.
    public static func merging(_ periods: [BusyPeriod]) -> [BusyPeriod] {
        var merged: [BusyPeriod] = []
        for period in periods.filter({ $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, period.start <= last.end {
                merged[merged.count - 1] = BusyPeriod(start: last.start, end: max(last.end, period.end))
            } else {
                merged.append(period)
            }
        }
        return merged
    }

    /// The end of the period of `merged` (sorted, merged) that contains `instant` (its start
    /// included, its end not); `nil` when `instant` is free.
    public static func end(ofPeriodContaining instant: Date, in merged: [BusyPeriod]) -> Date? {
        // The last period starting at or before the instant is the only one that may contain it.
        var low = 0, high = merged.count
        while low < high {
            let middle = (low + high) / 2
            if merged[middle].start <= instant { low = middle + 1 } else { high = middle }
        }
        guard low > 0, merged[low - 1].end > instant else { return nil }
        return merged[low - 1].end
    }
}
