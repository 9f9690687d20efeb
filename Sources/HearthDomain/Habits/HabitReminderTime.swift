import FoundationEssentials
import Support

/// When a habit's daily reminder fires: at a minute of the day, on the planned days of its
/// schedule (``HabitSchedule``), on the wall clock of its owner's time zone (so 07:30 stays 07:30
/// across daylight saving changes; a time a spring-forward skips fires at the same instant as the
/// minute after the gap).
public struct HabitReminderTime: Sendable, Hashable {
    /// The minute of the day, 0–1439.
    public let minute: Int
    /// The planned days.
    public let schedule: HabitSchedule
    /// The owner's zone.
    public let zone: TimeZoneRules

    /// The reminder at `minute` on the planned days of `schedule` in `zone`.
    public init(minute: Int, schedule: HabitSchedule, zone: TimeZoneRules) {
        self.minute = minute
        self.schedule = schedule
        self.zone = zone
    }

    /// The instant it fires on day `day` (a day number), planned or not.
    public func instant(onDay day: Int) -> Date {
        var hint = -1
        return Date(timeIntervalSince1970: Double(zone.instant(forLocal: day * CivilCalendar.secondsPerDay + minute * 60, hint: &hint)))
    }

    /// The first planned day from day `first` on whose reminder fires at or after `now`, with
    /// that instant; `nil` when the schedule plans no day (a week always holds one otherwise).
    public func next(fromDay first: Int, notBefore now: Date) -> (day: Int, at: Date)? {
        let start = max(first, schedule.startsOn, CalendarDay(containing: now, in: zone).dayNumber)
        // Eight days: every weekday once, and today again a week later when today's time has passed.
        for day in start...(start + 7) where schedule.isPlanned(day) {
            let at = instant(onDay: day)
            if at >= now { return (day, at) }
        }
        return nil
    }
}
