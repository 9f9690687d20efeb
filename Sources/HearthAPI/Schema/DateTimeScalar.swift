import FoundationEssentials
import GraphQL
import Support

/// The `DateTime` scalar (https://scalars.graphql.org/chillicream/date-time.html): RFC 3339
/// date-times with an offset. Emitted in UTC with `Z` and milliseconds; input with any offset
/// is normalised to that form. Malformed input is rejected with `BAD_USER_INPUT`.
public struct DateTimeScalar: ScalarCoercing {
    /// Creates the coercion.
    public init() {}

    /// Serializes a `WallClock.Instant` or a `Date` (to the millisecond), or a string that is
    /// a valid date-time (normalised).
    public func serialize(_ value: Any) throws -> JSON {
        switch value {
        case let instant as WallClock.Instant: return .string(instant.iso8601)
        case let date as Date: return .string(WallClock.Instant(date).iso8601)
        case let text as String:
            guard let instant = Self.parse(text) else { throw Self.error("DateTime cannot represent value: \"\(text)\"") }
            return .string(instant.iso8601)
        default:
            throw Self.error("DateTime cannot represent value: \(value)")
        }
    }

    /// Accepts a string in RFC 3339 `date-time` form and returns it normalised to UTC.
    public func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let text) = value else {
            throw Self.error("DateTime must be a string in RFC 3339 form, e.g. \"2026-03-01T08:30:00Z\".")
        }
        guard let instant = Self.parse(text) else {
            throw Self.error("DateTime cannot represent \"\(text)\": expected RFC 3339 form, e.g. \"2026-03-01T08:30:00Z\".")
        }
        return .string(instant.iso8601)
    }

    private static func error(_ message: String) -> GraphQLError {
        GraphQLError(message: message, extensions: ["code": .string(ErrorCode.badUserInput)])
    }

    /// The instant `text` (a value this scalar coerced) names, to the millisecond; `nil` when it
    /// does not parse.
    public static func date(_ text: String) -> Date? {
        parse(text).map { Date(timeIntervalSince1970: Double($0.millisecondsSinceEpoch) / 1000) }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T` and `Z` in either case); `nil`
    /// for anything else, including impossible dates such as February 30.
    public static func parse(_ text: String) -> WallClock.Instant? {
        let bytes = Array(text.utf8)
        var position = 0
        func number(_ width: Int) -> Int? {
            guard position + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<(position + width)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2) else { return nil }
        var nanoseconds = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            var digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[position] - 0x30) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offsetSeconds = 0
        if expect("Zz") {
            offsetSeconds = 0
        } else {
            guard position < bytes.count else { return nil }
            let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let offsetHour = number(2), expect(":"), let offsetMinute = number(2),
                  offsetHour <= 23, offsetMinute <= 59 else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard position == bytes.count, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return WallClock.Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
