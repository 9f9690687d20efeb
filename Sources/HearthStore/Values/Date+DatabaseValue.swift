import FoundationEssentials
import Support

/// Dates are stored as ISO 8601 UTC text with milliseconds, `2025-03-01T08:30:00.250Z`.
///
/// Text keeps the database readable with the `sqlite3` shell, sorts chronologically
/// with plain string comparison (fixed width, years 0001 through 9999), and works
/// with SQLite's date functions. Writing rounds to the nearest millisecond.
///
/// Reading also accepts what SQLite itself produces: `CURRENT_TIMESTAMP`'s
/// `2025-03-01 08:30:00` (a space instead of `T`, no zone: UTC), any fraction
/// length, a `Z` or `±HH:MM` offset, and INTEGER or REAL Unix seconds (`unixepoch()`).
extension Date: DatabaseValueConvertible {
    /// `TEXT` in the form `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var databaseValue: DatabaseValue {
        .text(ISO8601Timestamp.format(self))
    }

    /// Reads ISO 8601 text or Unix seconds; `nil` for anything else.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        switch value {
        case .text(let text): ISO8601Timestamp.parse(text)
        case .integer(let seconds): Date(timeIntervalSince1970: Double(seconds))
        case .real(let seconds): Date(timeIntervalSince1970: seconds)
        default: nil
        }
    }
}

/// A small, allocation-light ISO 8601 formatter and parser for UTC timestamps.
///
/// Foundation's formatters are heavier than this hot path deserves (every row with a
/// date goes through here) and their Linux Sendable story varies between versions.
enum ISO8601Timestamp {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// Formats `date` as `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.toNearestOrAwayFromZero))
        var days = milliseconds / millisecondsPerDay
        var millisecondOfDay = milliseconds % millisecondsPerDay
        if millisecondOfDay < 0 {
            days -= 1
            millisecondOfDay += millisecondsPerDay
        }
        let date = CivilCalendar.date(fromDayNumber: Int(days))
        let (year, month, day) = (Int64(date.year), Int64(date.month), Int64(date.day))
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000

        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var remaining = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
                remaining %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2)
        bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2)
        bytes.append(UInt8(ascii: "T"))
        append(hour, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(minute, digits: 2)
        bytes.append(UInt8(ascii: ":"))
        append(second, digits: 2)
        bytes.append(UInt8(ascii: "."))
        append(millisecond, digits: 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DD[T| ]HH:MM[:SS[.fraction]][Z|±HH:MM]`; no zone means UTC.
    static func parse(_ text: String) -> Date? {
        // Native strings are contiguous UTF-8: parse in place, without copying to an array.
        if let date = text.utf8.withContiguousStorageIfAvailable(parse) { return date }
        return Array(text.utf8).withUnsafeBufferPointer(parse)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if let date = writtenForm(bytes) { return date }
        var scanner = Scanner(bytes: bytes)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2),
              scanner.skip("T") || scanner.skip(" ") || scanner.skip("t"),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2)
        else { return nil }
        var second: Int64 = 0
        // The fraction as an integer over a power of ten, so that `.123` becomes exactly
        // the double nearest to x.123 (what `Date(timeIntervalSince1970: x.123)` holds).
        var fraction: Int64 = 0
        var fractionScale: Int64 = 1
        if scanner.skip(":") {
            guard let parsedSecond = scanner.number(digits: 2) else { return nil }
            second = parsedSecond
            if scanner.skip(".") {
                var digitCount = 0
                while let digit = scanner.digit() {
                    digitCount += 1
                    // Digits past nanoseconds are below Date's precision anyway.
                    if digitCount <= 9 {
                        fraction = fraction * 10 + digit
                        fractionScale *= 10
                    }
                }
                guard digitCount > 0 else { return nil }
            }
        }
        var offsetSeconds: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetSeconds = 0
        } else if let sign = scanner.sign() {
            guard let offsetHours = scanner.number(digits: 2), scanner.skip(":"),
                  let offsetMinutes = scanner.number(digits: 2)
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        return instant(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            fraction: fraction, scale: fractionScale, offsetSeconds: offsetSeconds)
    }

    /// The instant of a date and time at `offsetSeconds` from UTC, `fraction / scale` of a second
    /// past `second`; `nil` when a part is out of range (February 30th, 24:00).
    private static func instant(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64,
        fraction: Int64, scale: Int64, offsetSeconds: Int64 = 0
    ) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= Int64(CivilCalendar.daysInMonth(year: Int(year), month: Int(month))),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let seconds = Int64(CivilCalendar.dayNumber(year: Int(year), month: Int(month), day: Int(day))) * 86_400
            + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds * scale + fraction) / Double(scale))
    }

    /// Text in the form `format` writes, `YYYY-MM-DDTHH:MM:SS.sssZ`, read by fixed positions:
    /// nearly every timestamp read is one (a row's dates), and this reads it in about a fifth of
    /// the general parser's instructions. `nil` for text of any other form, or a date or time out
    /// of range, which the general parser then reads or refuses.
    private static func writtenForm(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
              bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        var valid = true
        /// The decimal number of the `length` digits at `offset`; clears `valid` on a non-digit.
        func number(_ offset: Int, _ length: Int) -> Int64 {
            var value: Int64 = 0
            for position in offset..<offset + length {
                let digit = bytes[position] &- UInt8(ascii: "0")
                valid = valid && digit < 10
                value = value &* 10 &+ Int64(digit)
            }
            return value
        }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        let hour = number(11, 2), minute = number(14, 2), second = number(17, 2), millisecond = number(20, 3)
        guard valid else { return nil }
        return instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: millisecond, scale: 1000)
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
                return nil
            }
            defer { position += 1 }
            return Int64(bytes[position] - UInt8(ascii: "0"))
        }

        mutating func number(digits: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
