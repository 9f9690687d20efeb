import FoundationEssentials
import Support

extension CalendarDay {
    /// The instant the day starts in `zone`: its local midnight (for a midnight a daylight-saving
    /// transition skips, read with the offset before it, as recurrences are). The next day's start
    /// is this day's end, so `start ..< next.start` is the whole day, 23, 24 or 25 hours long.
    public func start(in zone: TimeZoneRules) -> Date {
        var hint = 0
        return Date(timeIntervalSince1970: TimeInterval(zone.instant(forLocal: dayNumber * CivilCalendar.secondsPerDay, hint: &hint)))
    }

    /// The day after this one.
    public var next: CalendarDay { CalendarDay(dayNumber: dayNumber + 1) }
}
