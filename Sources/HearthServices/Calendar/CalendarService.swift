import FoundationEssentials
import HearthDomain
import HearthStore

/// The calendar (FR-59): what the viewer has on each day of a range, in their time zone: their
/// personal chores' instances, the viewed household's instances (every member's), and the
/// occurrences of their availability events (FR-64).
///
/// Instances beyond the materialised horizon are computed as `myChores` computes them, so a
/// month far ahead shows its chores. An entry is listed on each day it covers: a chore on the day
/// it is due, a timed event on every day from its start to its end, an all-day event on its days.
/// The range is bounded (``CalendarConfiguration``) in days and in entries.
public final class CalendarService: Sendable {
    /// Availability events, and through them the households service (store, active household).
    public let availability: AvailabilityService
    /// Chore instances, stored and computed.
    public let instances: ChoreInstanceService
    /// Calendar export (FR-60): the private feed and the download.
    public let feeds: CalendarFeedService

    /// Creates the service, its export's feed URLs starting with `baseURL` (`--public-base-url`).
    public init(availability: AvailabilityService, instances: ChoreInstanceService, baseURL: PublicBaseURL) {
        self.availability = availability
        self.instances = instances
        feeds = CalendarFeedService(availability: availability, baseURL: baseURL)
    }

    private var configuration: CalendarConfiguration { availability.configuration }

    /// The viewer's calendar from day `from` through day `to` (both included, in their time zone)
    /// with the chores of household `householdID` (their active household when `nil`).
    /// - Throws: `BAD_USER_INPUT` `OUT_OF_RANGE` on `to` before `from` or more than
    ///   ``CalendarConfiguration/maximumRangeDays`` days; `TOO_LARGE` on `to` for more than
    ///   ``CalendarConfiguration/maximumEntries`` entries; `NOT_FOUND` for a household they are not in.
    public func calendar(from: CalendarDay, to: CalendarDay, householdID: String?, viewer: Viewer) async throws -> CalendarView {
        guard to >= from, to.dayNumber - from.dayNumber < configuration.maximumRangeDays else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "to", reason: .outOfRange,
                message: "Ask for 1 to \(configuration.maximumRangeDays) days: to is on or after from, at most \(configuration.maximumRangeDays - 1) days later.")]))
        }
        var householdID = householdID
        if householdID == nil { householdID = try await availability.households.activeHouseholdID(viewer: viewer) }
        let (zone, events) = try await availability.households.pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            return (try owner.timeZone(), try AvailabilityEventRecord.all(owner))
        }
        let start = AvailabilityTiming.midnight(from, in: zone)
        let end = AvailabilityTiming.midnight(CalendarDay(dayNumber: to.dayNumber + 1), in: zone)
        let limit = configuration.maximumEntries + 1
        var entries = try await instances.calendarInstances(
            householdID: householdID, from: start, through: end.addingTimeInterval(-0.001), limit: limit, viewer: viewer
        ).map(CalendarEntry.chore)
        for event in events where entries.count < limit {
            entries += event.timing.occurrences(overlapping: start, end, limit: limit - entries.count).map { .availability(event, $0) }
        }
        guard entries.count <= configuration.maximumEntries else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "to", reason: .tooLarge,
                message: "More than \(configuration.maximumEntries) entries fall in this range: ask for fewer days at a time.")]))
        }
        return CalendarView(timeZone: zone, householdID: householdID, days: Self.days(entries, from: from, to: to, in: zone))
    }

    /// `entries` grouped by the days of `from` through `to` they cover in `zone`, in order.
    private static func days(_ entries: [CalendarEntry], from: CalendarDay, to: CalendarDay, in zone: TimeZoneRules) -> [CalendarView.Day] {
        var byDay: [Int: [CalendarEntry]] = [:]
        let range = from.dayNumber...to.dayNumber
        for entry in entries {
            let days = covered(by: entry, in: zone)
            guard days.overlaps(range) else { continue }
            for day in days.clamped(to: range) { byDay[day, default: []].append(entry) }
        }
        return byDay.keys.sorted().map { day in
            CalendarView.Day(
                date: CalendarDay(dayNumber: day),
                entries: byDay[day]!.sorted { ($0.start, $0.orderID) < ($1.start, $1.orderID) })
        }
    }

    /// The day numbers `entry` covers in `zone`: a chore's due day; an all-day occurrence's days;
    /// a timed occurrence's days from its start to just before its end.
    private static func covered(by entry: CalendarEntry, in zone: TimeZoneRules) -> ClosedRange<Int> {
        switch entry {
        case .chore(let chore):
            let day = CalendarDay(containing: chore.instance.dueAt, in: zone).dayNumber
            return day...day
        case .availability(_, let occurrence):
            if let days = occurrence.days { return days.lowerBound.dayNumber...days.upperBound.dayNumber }
            let first = CalendarDay(containing: occurrence.start, in: zone).dayNumber
            let last = CalendarDay(containing: occurrence.end.addingTimeInterval(-0.001), in: zone).dayNumber
            return first...max(first, last)
        }
    }
}
