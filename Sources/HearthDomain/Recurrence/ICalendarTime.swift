import Support

/// A DATE-TIME value of RFC 5545 §3.3.5 as written: a wall-clock reading and the way it
/// names its time zone.
struct ICalendarTime: Hashable, Sendable, Comparable {
    /// How the value names its zone.
    enum Form: Hashable, Sendable, Comparable {
        /// `…T093000;TZID=Europe/Berlin` (form 3): local time in that zone.
        case zone(String)
        /// `…T093000` without TZID (form 1): here, local time in the rule's zone.
        case floating
        /// `…T073000Z` (form 2): UTC.
        case utc
    }

    /// Days since 1970-01-01.
    let dayNumber: Int
    /// Seconds since midnight, 0–86399.
    let secondOfDay: Int
    let form: Form

    /// Seconds since 1970-01-01 on the wall clock.
    var localSeconds: Int { dayNumber * CivilCalendar.secondsPerDay + secondOfDay }

    /// The years a value may name: far enough back for any chore, and forward to the end of
    /// four-digit years (python-dateutil's `datetime.MAXYEAR`).
    static let years = 1900...9999

    /// The last day any occurrence may fall on, 9999-12-31.
    static let lastDayNumber = CivilCalendar.dayNumber(year: 9999, month: 12, day: 31)

    /// `YYYYMMDD` as a day number, or nil when it is not a valid date in ``years``.
    static func dayNumber(date bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 8, let year = number(bytes, at: bytes.startIndex, digits: 4),
            let month = number(bytes, at: bytes.startIndex + 4, digits: 2), let day = number(bytes, at: bytes.startIndex + 6, digits: 2),
            years.contains(year), (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        return CivilCalendar.dayNumber(year: year, month: month, day: day)
    }

    /// `YYYYMMDDTHHMMSS[Z]` (letters in either case); with `Z` the form is UTC, else `form`.
    /// Nil when malformed or out of range (a second of 60 included: leap seconds name no
    /// instant here, nor in python-dateutil).
    init?(_ bytes: ArraySlice<UInt8>, form: Form) {
        let start = bytes.startIndex
        let isUTC = bytes.count == 16 && bytes[start + 15].asciiUppercased == UInt8(ascii: "Z")
        guard bytes.count == (isUTC ? 16 : 15), bytes[start + 8].asciiUppercased == UInt8(ascii: "T"),
            let dayNumber = Self.dayNumber(date: bytes[start..<start + 8]), let hour = Self.number(bytes, at: start + 9, digits: 2),
            let minute = Self.number(bytes, at: start + 11, digits: 2), let second = Self.number(bytes, at: start + 13, digits: 2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        self.init(dayNumber: dayNumber, secondOfDay: hour * 3600 + minute * 60 + second, form: isUTC ? .utc : form)
    }

    /// The number the `digits` ASCII digits from `start` write, or nil when one is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>, at start: Int, digits: Int) -> Int? {
        var value = 0
        for index in start..<start + digits {
            guard bytes[index].isASCIIDigit else { return nil }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        }
        return value
    }

    init(dayNumber: Int, secondOfDay: Int, form: Form) {
        self.dayNumber = dayNumber
        self.secondOfDay = secondOfDay
        self.form = form
    }

    /// `YYYYMMDDTHHMMSS`, with `Z` for UTC.
    var text: String {
        Self.dateText(dayNumber) + "T" + Self.twoDigits(secondOfDay / 3600) + Self.twoDigits(secondOfDay / 60 % 60)
            + Self.twoDigits(secondOfDay % 60) + (form == .utc ? "Z" : "")
    }

    /// `YYYYMMDD`.
    static func dateText(_ dayNumber: Int) -> String {
        let date = CivilCalendar.date(fromDayNumber: dayNumber)
        let year = String(date.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + twoDigits(date.month) + twoDigits(date.day)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    static func < (left: ICalendarTime, right: ICalendarTime) -> Bool {
        (left.form, left.dayNumber, left.secondOfDay) < (right.form, right.dayNumber, right.secondOfDay)
    }
}
