import FoundationEssentials
import Support

/// The due times one chore's schedule produces (FR-36, FR-37), in the zone its recurrence is
/// read in: what instances are planned from and what `Chore.occurrences` shows.
///
/// - `once`: its due time, once.
/// - `recurrence`: the rule's occurrences (``RecurrenceRule``), honouring COUNT, UNTIL, EXDATE.
/// - `afterCompletion`: the next due time is the interval after the latest completion (or the
///   first due time before any), in calendar days of the zone, so a chore done at 18:00 is due
///   again at 18:00 local time across a daylight-saving change; the times after it are projected
///   at the same interval, as if each were completed when due.
public struct ChoreTimeline: Sendable {
    /// The schedule.
    public let schedule: ChoreSchedule
    /// The zone days are counted in.
    public let timeZone: TimeZoneRules
    private let rule: RecurrenceRule?

    /// The timeline of `schedule` in `timeZone` (the household's, or the owner's).
    /// - Throws: ``RecurrenceError`` for stored recurrence text that no longer parses (stored text
    ///   was parsed when it was saved; a time zone removed from the system is the one cause).
    public init(_ schedule: ChoreSchedule, timeZone: TimeZoneRules) throws(RecurrenceError) {
        self.schedule = schedule
        self.timeZone = timeZone
        if case .recurrence(let text) = schedule {
            // Stored text passed the limits when it was saved; lower limits since must not break it.
            rule = try ParsedRecurrences.rule(text, defaultTimeZone: timeZone)
        } else {
            rule = nil
        }
    }

    /// Whether due times come one after each completion rather than from the calendar.
    public var followsCompletions: Bool {
        if case .afterCompletion = schedule { true } else { false }
    }

    /// The due times at or after `after` and at or before `through`, in order, at most `limit`;
    /// `lastCompletedAt` is the latest completion, for an `afterCompletion` schedule.
    public func dueTimes(after: Date, through: Date? = nil, limit: Int, lastCompletedAt: Date? = nil) -> [Date] {
        guard limit > 0 else { return [] }
        let end = through ?? .distantFuture
        switch schedule {
        case .once(let dueAt):
            return dueAt >= after && dueAt <= end ? [dueAt] : []
        case .recurrence:
            guard let rule else { return [] }
            guard through != nil else { return rule.occurrences(after: after, limit: limit) }
            // `before` is exclusive: a millisecond past `through` includes it.
            return rule.occurrences(after: after, before: end.addingTimeInterval(0.001), limit: limit)
        case .afterCompletion(let every, let unit, let firstDueAt):
            var next = lastCompletedAt.map { Self.adding(every, unit, to: $0, in: timeZone) } ?? firstDueAt
            var times: [Date] = []
            // Whole intervals skip the times before `after` without walking them one by one.
            let step = Double(unit == .weeks ? 7 * every : every) * 86_400
            if next < after { next = Self.adding(Int(((after.timeIntervalSince(next)) / step).rounded(.down)) * every, unit, to: next, in: timeZone) }
            while times.count < limit, next <= end {
                if next >= after { times.append(next) }
                next = Self.adding(every, unit, to: next, in: timeZone)
            }
            return times
        }
    }

    /// The next due time of an `afterCompletion` chain whose latest completion was at
    /// `lastCompletedAt` (`nil`: never completed); `nil` for other schedules.
    public func nextAfterCompletion(_ lastCompletedAt: Date?) -> Date? {
        guard case .afterCompletion(let every, let unit, let firstDueAt) = schedule else { return nil }
        return lastCompletedAt.map { Self.adding(every, unit, to: $0, in: timeZone) } ?? firstDueAt
    }

    /// `date` moved by `count` calendar days (or weeks) of `zone`: the same wall-clock time that
    /// many days later (a time a daylight-saving gap skips reads with the offset before it).
    public static func adding(_ count: Int, _ unit: IntervalUnit, to date: Date, in zone: TimeZoneRules) -> Date {
        let days = unit == .weeks ? 7 * count : count
        let seconds = date.timeIntervalSince1970
        let whole = Int(seconds.rounded(.down))
        let local = whole + zone.offset(atInstant: whole) + days * CivilCalendar.secondsPerDay
        var hint = -1
        return Date(timeIntervalSince1970: Double(zone.instant(forLocal: local, hint: &hint)) + (seconds - Double(whole)))
    }

    /// The end of the local day of `date` in `zone` (the next midnight, as an instant): when a
    /// one-off chore's due date has passed (FR-37).
    public static func endOfDay(of date: Date, in zone: TimeZoneRules) -> Date {
        let whole = Int(date.timeIntervalSince1970.rounded(.down))
        let local = whole + zone.offset(atInstant: whole)
        let nextMidnight = (CivilCalendar.floorDivide(local, CivilCalendar.secondsPerDay) + 1) * CivilCalendar.secondsPerDay
        var hint = -1
        return Date(timeIntervalSince1970: Double(zone.instant(forLocal: nextMidnight, hint: &hint)))
    }
}
