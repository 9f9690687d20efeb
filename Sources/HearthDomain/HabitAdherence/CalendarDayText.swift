import Support

/// A calendar day as the store and the API write it, `YYYY-MM-DD`, and as adherence computes with
/// it, a day number (days since 1970-01-01, ``CivilCalendar``).
public enum CalendarDayText {
    /// The day number of `text` (`YYYY-MM-DD`, years 0001–9999), or nil when it is no valid date.
    public static func dayNumber(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            year >= 1, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        return CivilCalendar.dayNumber(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD` of day number `day`.
    public static func text(_ day: Int) -> String {
        let date = CivilCalendar.date(fromDayNumber: day)
        return padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2)
    }

    /// The value of ASCII digits, or nil when one is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard digit.isASCIIDigit else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
