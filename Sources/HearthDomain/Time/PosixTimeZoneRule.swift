import Support

/// The rule a TZif file's footer gives for every time after its last transition: a POSIX `TZ`
/// string such as `CET-1CEST,M3.5.0,M10.5.0/3` (RFC 8536 §3.3 and POSIX.1-2017 §8.3, with
/// RFC 8536's extension of transition hours to ±167).
///
/// Evaluated exactly as Python's `zoneinfo` evaluates it (`_TZStr`), so dates after the last
/// transition of a zone file agree with the oracle the recurrence tests compare against.
struct PosixTimeZoneRule: Sendable, Hashable {
    /// Daylight saving time: its offset and the local times it starts and ends each year.
    struct Daylight: Sendable, Hashable {
        /// Seconds east of UTC while daylight saving time is in force.
        let offset: Int
        /// When it starts, in local standard time.
        let start: TransitionDate
        /// When it ends, in local daylight saving time.
        let end: TransitionDate
    }

    /// The local date and time of one yearly transition.
    struct TransitionDate: Sendable, Hashable {
        enum Day: Sendable, Hashable {
            /// `Jn`: day 1–365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0–365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `weekday` (0 is Sunday) of week `week` (1–5, 5 the last) of `month`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight, −167 h to +167 h; 02:00 when the rule names none.
        let time: Int

        /// The transition in `year` as local seconds since 1970-01-01 (zoneinfo's `year_to_epoch`).
        func localSeconds(inYear year: Int) -> Int {
            let dayNumber: Int
            switch day {
            case .julian(let ordinal):
                let leapDay = CivilCalendar.isLeapYear(year) && ordinal >= 60 ? 1 : 0
                dayNumber = CivilCalendar.dayNumber(year: year, month: 1, day: 1) + ordinal - 1 + leapDay
            case .zeroBased(let ordinal):
                dayNumber = CivilCalendar.dayNumber(year: year, month: 1, day: 1) + ordinal
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
                // POSIX counts weekdays from Sunday; CivilCalendar from Monday.
                let firstWeekday = (CivilCalendar.weekday(ofDayNumber: first) + 1) % 7
                var day = (weekday - firstWeekday + 7) % 7 + 1 + (week - 1) * 7
                if day > CivilCalendar.daysInMonth(year: year, month: month) { day -= 7 }
                dayNumber = first + day - 1
            }
            return dayNumber * CivilCalendar.secondsPerDay + time
        }
    }

    /// Seconds east of UTC in standard time.
    let standardOffset: Int
    /// Nil for a zone without daylight saving time.
    let daylight: Daylight?

    /// The offset in force at local time `local` (seconds since 1970-01-01 on the wall clock),
    /// reading a time that falls in a gap or an overlap with the offset before the transition
    /// (zoneinfo's `fold=0`).
    func offset(atLocal local: Int) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilCalendar.date(fromDayNumber: CivilCalendar.floorDivide(local, CivilCalendar.secondsPerDay)).year
        var start = daylight.start.localSeconds(inYear: year)
        var end = daylight.end.localSeconds(inYear: year)
        let difference = daylight.offset - standardOffset
        // With fold=0 the period of the smaller offset runs from the end of the gap to the end
        // of the overlap, whichever sign daylight saving time has.
        if difference >= 0 { start += difference } else { end -= difference }
        return Self.isInside(local, start: start, end: end) ? daylight.offset : standardOffset
    }

    /// The offset in force at `instant` (seconds since 1970-01-01 UTC).
    func offset(atInstant instant: Int) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilCalendar.date(fromDayNumber: CivilCalendar.floorDivide(instant, CivilCalendar.secondsPerDay)).year
        let start = daylight.start.localSeconds(inYear: year) - standardOffset
        let end = daylight.end.localSeconds(inYear: year) - daylight.offset
        return Self.isInside(instant, start: start, end: end) ? daylight.offset : standardOffset
    }

    /// Whether `value` lies in daylight saving time from `start` to `end`, which wraps around the
    /// new year in the southern hemisphere.
    private static func isInside(_ value: Int, start: Int, end: Int) -> Bool {
        start < end ? (start <= value && value < end) : !(end <= value && value < start)
    }
}

extension PosixTimeZoneRule {
    /// Parses a TZ string; nil when it is not one (the zone then keeps its last offset).
    init?(_ text: some StringProtocol) {
        var scanner = PosixScanner(bytes: Array(text.utf8))
        // zoneinfo reads a name without an offset as UTC.
        guard scanner.skipName(), let standard = scanner.atEnd ? 0 : scanner.offset() else { return nil }
        standardOffset = standard
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.skipName() else { return nil }
        let daylightOffset = scanner.peek == UInt8(ascii: ",") ? standard + 3600 : scanner.offset()
        guard let daylightOffset, scanner.take(","), let start = scanner.transitionDate(), scanner.take(","),
            let end = scanner.transitionDate(), scanner.atEnd
        else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }
}

/// Reads the pieces of a TZ string, byte by byte.
private struct PosixScanner {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// A zone abbreviation: three or more letters, or anything of letters, digits and signs in `<…>`.
    mutating func skipName() -> Bool {
        if take("<") {
            let start = position
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard byte.isASCIILetterOrDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return false }
                position += 1
            }
            return position > start && take(">")
        }
        let start = position
        while let byte = peek, !byte.isASCIIDigit, !":.,+-<".utf8.contains(byte) { position += 1 }
        return position > start
    }

    /// `[+-]hh[:mm[:ss]]` with POSIX's sign (positive is west of Greenwich), as seconds east of UTC.
    mutating func offset() -> Int? {
        guard let (seconds, hours) = signedClock(maximumHourDigits: 3), hours <= 24 else { return nil }
        return -seconds
    }

    /// `date[/time]`.
    mutating func transitionDate() -> PosixTimeZoneRule.TransitionDate? {
        let day: PosixTimeZoneRule.TransitionDate.Day
        if take("M") {
            guard let month = number(maximumDigits: 2), take("."), let week = number(maximumDigits: 1), take("."),
                let weekday = number(maximumDigits: 1), (1...12).contains(month), (1...5).contains(week), weekday <= 6
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else if take("J") {
            guard let ordinal = number(maximumDigits: 3), (1...365).contains(ordinal) else { return nil }
            day = .julian(ordinal)
        } else {
            guard let ordinal = number(maximumDigits: 3), ordinal <= 365 else { return nil }
            day = .zeroBased(ordinal)
        }
        guard take("/") else { return .init(day: day, time: 7200) }
        guard let (time, hours) = signedClock(maximumHourDigits: 3), hours <= 167 else { return nil }
        return .init(day: day, time: time)
    }

    /// `[+-]h[h[h]][:mm[:ss]]` as signed seconds, with the hours for range checks.
    private mutating func signedClock(maximumHourDigits: Int) -> (seconds: Int, hours: Int)? {
        let negative = take("-")
        if !negative { _ = take("+") }
        guard let hours = number(maximumDigits: maximumHourDigits) else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(exactDigits: 2) else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let secondsPart = number(exactDigits: 2) else { return nil }
                seconds += secondsPart
            }
        }
        return (negative ? -seconds : seconds, hours)
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while let byte = peek, byte.isASCIIDigit, digits < maximumDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    private mutating func number(exactDigits: Int) -> Int? {
        let start = position
        guard let value = number(maximumDigits: exactDigits), position - start == exactDigits else { return nil }
        return value
    }
}
