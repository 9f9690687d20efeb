import FoundationEssentials
import Support

/// A calendar day (`YYYY-MM-DD`, the GraphQL `Date`): a habit's start, the local day a habit event
/// counts for. Ordered, and stored as its text, which sorts like the days.
public struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (`CivilCalendar`'s day number).
    public let dayNumber: Int

    /// The day with number `dayNumber`.
    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// The day `text` names, written `YYYY-MM-DD` (years 0001–9999); `nil` for anything else,
    /// including days that do not exist (`2026-02-30`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1, (1...12).contains(month),
              (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        dayNumber = CivilCalendar.dayNumber(year: year, month: month, day: day)
    }

    /// The day it is in `zone` at `instant`.
    public init(containing instant: Date, in zone: TimeZoneRules) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromUTC(at: instant)
        dayNumber = CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = CivilCalendar.date(fromDayNumber: dayNumber)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The day's weekday.
    public var weekday: Weekday {
        Weekday.allCases[CivilCalendar.weekday(ofDayNumber: dayNumber)]
    }

    public static func < (left: CalendarDay, right: CalendarDay) -> Bool {
        left.dayNumber < right.dayNumber
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD day"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
