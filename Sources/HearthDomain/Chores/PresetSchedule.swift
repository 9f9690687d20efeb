import FoundationEssentials
import Support

/// A preset's default schedule (FR-43): a recurrence without a start date, which a chore made
/// from the preset starts on its first due day from its creation on, or an interval after each
/// completion.
public enum PresetSchedule: Sendable, Hashable, Codable {
    /// An `RRULE` value such as `FREQ=WEEKLY;BYDAY=SA` at a local time of day `HH:MM`.
    case recurrence(rule: String, time: String)
    /// Every `every` days or weeks after the previous completion.
    case afterCompletion(every: Int, unit: IntervalUnit)

    /// The RFC 5545 text of a chore made from this recurrence at `now` in `zone` (the household's,
    /// or the owner's): `DTSTART;TZID=<zone>:<day>T<time>00` and the `RRULE` line, where `day` is
    /// the calendar day in `zone` (not in UTC: at 00:30 in Berlin it is already the next day
    /// there) of the rule's first due time at or after `now`. DTSTART is always an occurrence
    /// (RFC 5545), so starting on the day of creation would add one the rule does not make (a
    /// Wednesday for a Saturday chore) or one already overdue (08:00 at noon). `nil` for an
    /// interval.
    public func recurrenceText(createdAt now: Date, in zone: TimeZoneRules) -> String? {
        guard case .recurrence(let rule, let time) = self else { return nil }
        let clock = time.replacing(":", with: "")
        func text(startingOn day: Int) -> String {
            "DTSTART;TZID=\(zone.identifier):\(ICalendarTime.dateText(day))T\(clock)00\nRRULE:\(rule)"
        }
        let today = Self.localDay(of: now, in: zone)
        // Started the day before, the DTSTART lies in the past, so what follows `now` is the rule's own.
        guard let probe = try? RecurrenceRule.parse(text(startingOn: today - 1), defaultTimeZone: zone),
              let first = probe.occurrences(after: now, limit: 1).first
        else { return text(startingOn: today) }
        return text(startingOn: Self.localDay(of: first, in: zone))
    }

    /// The number of the calendar day `date` falls on in `zone`.
    private static func localDay(of date: Date, in zone: TimeZoneRules) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromUTC(at: date)
        return CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay)
    }

    /// The preset schedule of a chore's `schedule`: its `RRULE` and its start's time of day, or its
    /// interval; `nil` for a one-off chore, whose date a preset cannot keep.
    public init?(_ schedule: ChoreSchedule) {
        switch schedule {
        case .once:
            return nil
        case .afterCompletion(let every, let unit, _):
            self = .afterCompletion(every: every, unit: unit)
        case .recurrence(let text):
            let lines = text.split(whereSeparator: \.isNewline)
            guard let rule = lines.first(where: { $0.hasPrefix("RRULE:") })?.dropFirst("RRULE:".count),
                  let start = lines.first(where: { $0.hasPrefix("DTSTART") }),
                  let stamp = start.split(separator: ":").last, let separator = stamp.firstIndex(of: "T") else { return nil }
            let clock = stamp[stamp.index(after: separator)...].prefix(4)
            guard clock.count == 4, clock.allSatisfy(\.isASCII), clock.allSatisfy(\.isNumber) else { return nil }
            self = .recurrence(rule: String(rule), time: "\(clock.prefix(2)):\(clock.suffix(2))")
        }
    }
}
