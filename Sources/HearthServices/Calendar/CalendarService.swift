import FoundationEssentials
import HearthDomain
import HearthStore

/// The calendar (FR-59): what the viewer has on each day of a range, in their time zone: their
/// personal chores' instances, the viewed household's instances (every member's), the reminders
/// that reach the viewer of those instances where they really fire (``CalendarReminders``: a
/// reminder whose chore is due after the range but that fires in it included), the occurrences
/// of their availability events (FR-64) and of their imported calendars' events (FR-61, read-only).
///
/// Instances beyond the materialised horizon are computed as `myChores` computes them, so a
/// month far ahead shows its chores. An entry is listed on each day it covers: a chore on the day
/// it is due, a reminder on the day it fires, a timed event on every day from its start to its
/// end, an all-day event on its days.
/// The range is bounded (``CalendarConfiguration``) in days and in entries.
public final class CalendarService: Sendable {
    /// Availability events, and through them the households service (store, active household).
    public let availability: AvailabilityService
    /// Chore instances, stored and computed.
    public let instances: ChoreInstanceService
    /// Calendar export (FR-60): the private feed and the download.
    public let feeds: CalendarFeedService
    /// Imported calendars, whose events the calendar shows.
    public let importedCalendars: ImportedCalendarService

    /// Creates the service, its export's feed URLs starting with `baseURL` (`--public-base-url`).
    public init(availability: AvailabilityService, instances: ChoreInstanceService, importedCalendars: ImportedCalendarService, baseURL: PublicBaseURL) {
        self.availability = availability
        self.instances = instances
        self.importedCalendars = importedCalendars
        feeds = CalendarFeedService(availability: availability, baseURL: baseURL)
    }

    private var configuration: CalendarConfiguration { availability.configuration }

    /// The viewer's calendar from day `from` through day `to` (both included, in their time zone)
    /// with the chores of household `householdID` (their active household when `nil`).
    /// - Throws: `BAD_USER_INPUT` `OUT_OF_RANGE` on `to` before `from` or more than
    ///   ``CalendarConfiguration/maximumRangeDays`` days; `TOO_LARGE` on `to` for more than
    ///   ``CalendarConfiguration/maximumEntries`` entries (or more imported occurrences than
    ///   `--calendar-max-occurrences`); `NOT_FOUND` for a household they are not in.
    public func calendar(from: CalendarDay, to: CalendarDay, householdID: String?, viewer: Viewer) async throws -> CalendarView {
        guard to >= from, to.dayNumber - from.dayNumber < configuration.maximumRangeDays else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "to", reason: .outOfRange,
                message: "Ask for 1 to \(configuration.maximumRangeDays) days: to is on or after from, at most \(configuration.maximumRangeDays - 1) days later.")]))
        }
        let activeHouseholdID = try await availability.households.activeHouseholdID(viewer: viewer)
        let householdID = householdID ?? activeHouseholdID
        let (zone, events) = try await availability.households.pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            let zone = try owner.timeZone()
            let (start, end) = Self.bounds(from, to, in: zone)
            return (zone, try AvailabilityEventRecord.overlapping(start, end, owner))
        }
        let (start, end) = Self.bounds(from, to, in: zone)
        let limit = configuration.maximumEntries + 1
        // Instances due up to the longest reminder offset after the range: their reminders may fire in it.
        let reach = TimeInterval(instances.chores.configuration.reminderLimits.maximumOffsetSeconds)
        let (chores, theirs) = try await instances.calendarInstances(
            householdID: householdID, from: start, through: end.addingTimeInterval(reach - 0.001), limit: limit, viewer: viewer)
        var entries = chores.filter { $0.instance.dueAt < end }.map(CalendarEntry.chore)
        let now = availability.households.clock.storedNow
        let reminders = try await availability.households.pool.readPreferringCallingThread { database in
            try CalendarReminders(owner: OwnerScope(Owner(viewer), database), now: now).of(
                chores, theirs: theirs, activeHouseholdID: activeHouseholdID, dueFrom: start, dueThrough: end.addingTimeInterval(reach))
        }
        entries += reminders.filter { $0.firesAt >= start && $0.firesAt < end }
            .sorted { ($0.firesAt, $0.chore.instance.id, $0.offset.seconds) < ($1.firesAt, $1.chore.instance.id, $1.offset.seconds) }
            .prefix(max(0, limit - entries.count)).map(CalendarEntry.reminder)
        for event in events where entries.count < limit {
            entries += event.timing.occurrences(overlapping: start, end, limit: limit - entries.count).map { .availability(event, $0) }
        }
        if entries.count < limit {
            entries += try await importedCalendars.importedEvents(for: viewer, from: start, to: end).prefix(limit - entries.count).map(CalendarEntry.imported)
        }
        guard entries.count <= configuration.maximumEntries else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "to", reason: .tooLarge,
                message: "More than \(configuration.maximumEntries) entries fall in this range: ask for fewer days at a time.")]))
        }
        return CalendarView(timeZone: zone, householdID: householdID, days: Self.days(entries, from: from, to: to, in: zone))
    }

    /// The instants days `from` through `to` begin and end in `zone`.
    private static func bounds(_ from: CalendarDay, _ to: CalendarDay, in zone: TimeZoneRules) -> (start: Date, end: Date) {
        (AvailabilityTiming.midnight(from, in: zone), AvailabilityTiming.midnight(CalendarDay(dayNumber: to.dayNumber + 1), in: zone))
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

    /// The day numbers `entry` covers in `zone`: a chore's due day; a reminder's firing day; an
    /// all-day occurrence's days; a timed occurrence's days from its start to just before its end.
    private static func covered(by entry: CalendarEntry, in zone: TimeZoneRules) -> ClosedRange<Int> {
        switch entry {
        case .chore, .reminder:
            let day = CalendarDay(containing: entry.start, in: zone).dayNumber
            return day...day
        case .availability(_, let occurrence):
            if let days = occurrence.days { return days.lowerBound.dayNumber...days.upperBound.dayNumber }
            return timedDays(from: occurrence.start, to: occurrence.end, in: zone)
        case .imported(let imported):
            let occurrence = imported.occurrence
            if let first = occurrence.firstDay {
                let afterLast = occurrence.endDay?.dayNumber ?? first.dayNumber + 1
                return first.dayNumber...max(first.dayNumber, afterLast - 1)
            }
            return timedDays(from: occurrence.start, to: occurrence.end, in: zone)
        }
    }

    /// The days a timed span covers in `zone`: from its start's to the one just before its end.
    private static func timedDays(from start: Date, to end: Date, in zone: TimeZoneRules) -> ClosedRange<Int> {
        let first = CalendarDay(containing: start, in: zone).dayNumber
        let last = CalendarDay(containing: end.addingTimeInterval(-0.001), in: zone).dayNumber
        return first...max(first, last)
    }
}
