import FoundationEssentials
import Support

/// The VTIMEZONE component of a zone (RFC 5545 §3.6.5) for the stretch of time a calendar file
/// uses, so a reader without the IANA database still places every local time: one observance
/// for the offset in force at the start, then one per transition, each with its own DTSTART and
/// no RRULE (readers that know the zone by its TZID use their own rules instead).
public enum VTimeZone {
    /// The observances of `zone` from `from` through `to`, appended to `text`.
    public static func write(_ zone: TimeZoneRules, from: Date, through to: Date, into text: inout ICalendarText) {
        text.begin("VTIMEZONE")
        text.line("TZID", zone.identifier)
        let initial = zone.secondsFromUTC(at: from)
        observance(at: from, before: initial, after: initial, zone: zone, into: &text)
        for (instant, before, after) in transitions(of: zone, from: from, through: to) {
            observance(at: instant, before: before, after: after, zone: zone, into: &text)
        }
        text.end("VTIMEZONE")
    }

    /// One observance starting at `instant`, local time read with the offset `before` it.
    private static func observance(at instant: Date, before: Int, after: Int, zone: TimeZoneRules, into text: inout ICalendarText) {
        // A move to a larger offset is (nearly always) summer time; either name is valid.
        let kind = after > before ? "DAYLIGHT" : "STANDARD"
        text.begin(kind)
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + before
        text.line("DTSTART", ICalendarStamp.local(seconds: local))
        text.line("TZOFFSETFROM", offset(before))
        text.line("TZOFFSETTO", offset(after))
        text.end(kind)
    }

    /// The instants from `from` through `to` where `zone`'s offset changes, with the offsets
    /// before and after: found by sampling every six hours (no zone changes twice in that
    /// time) and narrowing each change to the second.
    static func transitions(of zone: TimeZoneRules, from: Date, through to: Date) -> [(Date, Int, Int)] {
        let step = 6 * 3600
        var found: [(Date, Int, Int)] = []
        var previous = Int(from.timeIntervalSince1970.rounded(.down))
        let end = Int(to.timeIntervalSince1970.rounded(.up))
        var previousOffset = zone.offset(atInstant: previous)
        while previous < end {
            let next = min(previous + step, end)
            let nextOffset = zone.offset(atInstant: next)
            if nextOffset != previousOffset {
                var low = previous  // offset before
                var high = next  // offset after
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if zone.offset(atInstant: middle) == previousOffset { low = middle } else { high = middle }
                }
                found.append((Date(timeIntervalSince1970: Double(high)), previousOffset, nextOffset))
            }
            previous = next
            previousOffset = nextOffset
        }
        return found
    }

    /// `seconds` east of UTC as `+HHMM` (`+HHMMSS` when not whole minutes).
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let value = abs(seconds)
        let text = ICalendarStamp.two(value / 3600) + ICalendarStamp.two(value / 60 % 60)
        return sign + text + (value % 60 == 0 ? "" : ICalendarStamp.two(value % 60))
    }
}

/// RFC 5545 DATE, DATE-TIME and UTC DATE-TIME values.
public enum ICalendarStamp {
    /// `date` in UTC, `YYYYMMDDTHHMMSSZ`.
    public static func utc(_ date: Date) -> String {
        local(seconds: Int(date.timeIntervalSince1970.rounded(.down))) + "Z"
    }

    /// `instant` on `zone`'s wall clock, `YYYYMMDDTHHMMSS`.
    public static func local(_ instant: Date, in zone: TimeZoneRules) -> String {
        local(seconds: Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromUTC(at: instant))
    }

    /// `day`, `YYYYMMDD`.
    public static func date(_ day: CalendarDay) -> String {
        String(day.description.filter { $0 != "-" })
    }

    /// Local seconds since 1970 as `YYYYMMDDTHHMMSS`.
    static func local(seconds: Int) -> String {
        let day = CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay)
        let time = seconds - day * CivilCalendar.secondsPerDay
        return date(CalendarDay(dayNumber: day)) + "T" + two(time / 3600) + two(time / 60 % 60) + two(time % 60)
    }

    /// `value` in two digits.
    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
