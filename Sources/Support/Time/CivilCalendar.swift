/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), after
/// Howard Hinnant's `days_from_civil` and `civil_from_days`.
///
/// The store's timestamps, the time zone rules and the recurrence engine compute dates with
/// these few integer operations instead of asking Foundation's `Calendar`, which costs
/// microseconds per date and, without ICU, knows no named time zones at all.
public enum CivilCalendar {
    /// The day number of `year`-`month`-`day` (month 1–12; day may run past the month's end,
    /// which counts on into the next month).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month (1–12) and day (1–31) of day number `dayNumber`.
    public static func date(fromDayNumber dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The weekday of day number `dayNumber`: 0 is Monday, 6 is Sunday (ISO 8601's order,
    /// and python-dateutil's). 1970-01-01 was a Thursday.
    public static func weekday(ofDayNumber dayNumber: Int) -> Int {
        let remainder = (dayNumber + 3) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// Whether `year` has a February 29.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The days of `month` (1–12) in `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Months counted from year 0: the month index of January 1970 is 23,640.
    public static func monthIndex(year: Int, month: Int) -> Int {
        year * 12 + month - 1
    }

    /// The Gregorian calendar repeats itself, weekdays included, every 400 years: 146,097
    /// days, exactly 20,871 weeks.
    public static let daysPerCycle = 146_097

    /// Seconds in a civil day (UTC has no leap seconds here, as in Unix time).
    public static let secondsPerDay = 86_400

    /// `value` divided by `divisor` (positive), rounded towards minus infinity.
    public static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
