import FoundationEssentials
import Support

/// The calendar days one period covers at one moment, in one time zone: what a leaderboard or
/// scoreboard adds up.
///
/// Completions are counted on the calendar day they were done on in the household's time zone (the
/// owner's, for personal chores), as a day number (days since 1970-01-01, ``CivilCalendar``). A week
/// is the seven days from the last `firstWeekday` on or before today; a month runs from its 1st to
/// its last day; all time has no bounds. Days are local, so a completion at 23:59 on the last day of
/// a month in Lisbon counts in that month however far UTC has moved on, and one at 00:01 in the
/// next.
public struct ScoreWindow: Sendable, Hashable {
    /// The period.
    public var period: ScorePeriod
    /// The first day counted; `nil` for all time.
    public var firstDay: Int?
    /// The day after the last day counted; `nil` for all time.
    public var endDay: Int?
    /// The instant the first day starts (local midnight); `nil` for all time.
    public var start: Date?
    /// The instant the period ends, the start of ``endDay`` (exclusive); `nil` for all time.
    public var end: Date?

    /// The window of `period` that contains `now` in `zone`, with weeks starting on `firstWeekday`.
    public init(_ period: ScorePeriod, containing now: Date, in zone: TimeZoneRules, firstWeekday: Weekday = .fallback) {
        self.period = period
        let today = Self.day(of: now, in: zone)
        switch period {
        case .allTime:
            return
        case .week:
            let back = (CivilCalendar.weekday(ofDayNumber: today) - firstWeekday.isoIndex + 7) % 7
            firstDay = today - back
            endDay = today - back + 7
        case .month:
            let date = CivilCalendar.date(fromDayNumber: today)
            firstDay = CivilCalendar.dayNumber(year: date.year, month: date.month, day: 1)
            endDay = date.month == 12
                ? CivilCalendar.dayNumber(year: date.year + 1, month: 1, day: 1)
                : CivilCalendar.dayNumber(year: date.year, month: date.month + 1, day: 1)
        }
        start = firstDay.map { Self.startOfDay($0, in: zone) }
        end = endDay.map { Self.startOfDay($0, in: zone) }
    }

    /// Whether day `day` (a day number) falls in the window.
    public func contains(day: Int) -> Bool {
        guard let firstDay, let endDay else { return true }
        return (firstDay..<endDay).contains(day)
    }

    /// Whether `instant` still lies in the window's period (before its end).
    public func isCurrent(at instant: Date) -> Bool {
        end.map { instant < $0 } ?? true
    }

    /// The day number of the calendar day `date` falls on in `zone`.
    public static func day(of date: Date, in zone: TimeZoneRules) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromUTC(at: date)
        return CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay)
    }

    /// The instant day `day` starts in `zone`: its local midnight (for a midnight a transition
    /// skips, read with the offset before it, as recurrences are).
    static func startOfDay(_ day: Int, in zone: TimeZoneRules) -> Date {
        CalendarDay(dayNumber: day).start(in: zone)
    }
}
