extension WallClock.Instant {
    /// The instant RFC 3339 text names: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T` and `Z`
    /// in either case); nil for anything else, including impossible dates such as February 30.
    public init?(rfc3339 text: String) {
        var text = text
        guard let instant = text.withUTF8({ Self.parse(rfc3339: $0) }) else { return nil }
        self = instant
    }

    /// The instant the UTF-8 text `bytes` names, read in place (``init(rfc3339:)``).
    private static func parse(rfc3339 bytes: UnsafeBufferPointer<UInt8>) -> WallClock.Instant? {
        var position = 0
        func number(_ width: Int) -> Int? {
            guard position + width <= bytes.count else { return nil }
            var value = 0
            for byte in UnsafeBufferPointer(rebasing: bytes[position..<(position + width)]) {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += width
            return value
        }
        func expect(_ character: Unicode.Scalar, or other: Unicode.Scalar? = nil) -> Bool {
            guard position < bytes.count,
                  bytes[position] == UInt8(ascii: character) || other.map({ bytes[position] == UInt8(ascii: $0) }) == true
            else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("T", or: "t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
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
        if expect("Z", or: "z") {
            offsetSeconds = 0
        } else {
            guard position < bytes.count else { return nil }
            let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+", or: "-"), let offsetHour = number(2), expect(":"), let offsetMinute = number(2),
                  offsetHour <= 23, offsetMinute <= 59 else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard position == bytes.count, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = CivilCalendar.dayNumber(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return WallClock.Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }
}
