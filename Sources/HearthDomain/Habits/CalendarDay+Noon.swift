import FoundationEssentials
import Support

extension CalendarDay {
    /// The instant of the day's local noon in `zone`: the time an event known only by its day is
    /// taken to have happened (an imported Loop Habit Tracker checkmark). Noon is never skipped or
    /// repeated by a daylight-saving change, and stays inside the day in every zone, so the day
    /// read back from it in `zone` (``init(containing:in:)``) is this day.
    public func noon(in zone: TimeZoneRules) -> Date {
        var hint = 0
        let local = dayNumber * CivilCalendar.secondsPerDay + CivilCalendar.secondsPerDay / 2
        return Date(timeIntervalSince1970: TimeInterval(zone.instant(forLocal: local, hint: &hint)))
    }
}
