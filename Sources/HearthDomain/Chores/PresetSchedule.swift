import FoundationEssentials
import Support

/// A preset's default schedule (FR-43): a recurrence without a start date, which a chore made
/// from the preset starts on the day it is created, or an interval after each completion.
public enum PresetSchedule: Sendable, Hashable, Codable {
    /// An `RRULE` value such as `FREQ=WEEKLY;BYDAY=SA` at a local time of day `HH:MM`.
    case recurrence(rule: String, time: String)
    /// Every `every` days or weeks after the previous completion.
    case afterCompletion(every: Int, unit: IntervalUnit)

    /// The RFC 5545 text of a chore made from this recurrence at `now` in `zone` (the household's,
    /// or the owner's): `DTSTART;TZID=<zone>:<day>T<time>00` and the `RRULE` line, where `day` is
    /// the calendar day `now` falls on in `zone` (not in UTC: at 00:30 in Berlin it is already
    /// the next day there); `nil` for an interval.
    public func recurrenceText(createdAt now: Date, in zone: TimeZoneRules) -> String? {
        guard case .recurrence(let rule, let time) = self else { return nil }
        let seconds = Int(now.timeIntervalSince1970.rounded(.down)) + zone.secondsFromUTC(at: now)
        let day = ICalendarTime.dateText(CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay))
        let clock = time.replacing(":", with: "")
        return "DTSTART;TZID=\(zone.identifier):\(day)T\(clock)00\nRRULE:\(rule)"
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
