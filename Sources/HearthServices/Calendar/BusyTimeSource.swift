import FoundationEssentials
import HearthDomain

/// One kind of calendar data that says when a user is busy (FR-50A): their imported calendars'
/// busy events, their availability events of kind busy, and (when connected) their synced
/// calendars. ``BusyTimes`` asks every source.
protocol BusyTimeSource: Sendable {
    /// The periods in which `owner` is busy between `from` and `to` by this source, in any order
    /// (overlaps allowed: ``BusyTimes`` merges them). Free or transparent time is left out.
    /// - Throws: ``ServiceError`` when the source refuses the range (too many occurrences), ``StoreError``.
    func busyPeriods(of owner: OwnerScope, from: Date, to: Date) throws -> [BusyPeriod]
}

extension ImportedCalendarService: BusyTimeSource {}

extension AvailabilityService: BusyTimeSource {
    /// The occurrences of `owner`'s availability events of kind busy that overlap `from` ..< `to`.
    func busyPeriods(of owner: OwnerScope, from: Date, to: Date) throws -> [BusyPeriod] {
        try AvailabilityEventRecord.overlapping(from, to, availability: .busy, owner).flatMap { event in
            event.timing.occurrences(overlapping: from, to, limit: configuration.maximumEntries).map { BusyPeriod(start: $0.start, end: $0.end) }
        }
    }
}
