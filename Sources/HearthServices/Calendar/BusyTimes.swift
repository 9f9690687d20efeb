import FoundationEssentials
import HearthDomain
import HearthStore

/// When a user is busy by all their calendar data (FR-50A): the periods of every
/// ``BusyTimeSource`` merged. This is the one place a new source of busy time (a connected
/// calendar) is added: one more element of ``sources``.
public struct BusyTimes: Sendable {
    /// Where busy time comes from.
    let sources: [any BusyTimeSource]

    /// Busy time from imported calendars (events not marked TRANSP:TRANSPARENT, FR-61) and
    /// availability events of kind busy (FR-64).
    public init(importedCalendars: ImportedCalendarService, availability: AvailabilityService) {
        sources = [importedCalendars, availability]
    }

    /// No busy time at all (nothing is ever held back for it).
    public static let none = BusyTimes(sources: [])

    private init(sources: [any BusyTimeSource]) {
        self.sources = sources
    }

    /// The periods in which `owner` is busy between `from` and `to`, sorted and merged.
    /// - Throws: as the sources do.
    func periods(of owner: OwnerScope, from: Date, to: Date) throws -> [BusyPeriod] {
        BusyPeriod.merging(try sources.flatMap { try $0.busyPeriods(of: owner, from: from, to: to) })
    }
}
