import Support

/// Calendar days written `YYYY-MM-DD` (ISO 8601's extended calendar date, as Loop's CSV files
/// and the habit tables write them), to and from day numbers (days since 1970-01-01).
public enum DayText {
    /// The day number of `text`, or nil unless it is a real day written `YYYY-MM-DD` (years 1000–9999).
    public static func dayNumber(_ text: String) -> Int? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in utf8[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1000,
            (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return nil }
        return CivilCalendar.dayNumber(year: year, month: month, day: day)
    }

    /// Day number `dayNumber` written `YYYY-MM-DD`.
    public static func text(_ dayNumber: Int) -> String {
        let (year, month, day) = CivilCalendar.date(fromDayNumber: dayNumber)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
