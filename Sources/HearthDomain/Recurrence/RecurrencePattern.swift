/// The parts of an RRULE value (RFC 5545 §3.3.10) as written, checked one by one and against
/// each other; ``RecurrencePlan`` turns them into what the expansion reads.
struct RecurrencePattern: Hashable, Sendable {
    enum Frequency: String, Sendable, CaseIterable {
        case daily = "DAILY"
        case weekly = "WEEKLY"
        case monthly = "MONTHLY"
        case yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday (0 is Monday), with an ordinal such as the -1 of `-1FR` in a
    /// MONTHLY or YEARLY rule.
    struct WeekdayNumber: Hashable, Sendable, Comparable {
        let weekday: Int
        let ordinal: Int?

        static func < (left: WeekdayNumber, right: WeekdayNumber) -> Bool {
            (left.ordinal == nil ? 0 : 1, left.weekday, left.ordinal ?? 0) < (right.ordinal == nil ? 0 : 1, right.weekday, right.ordinal ?? 0)
        }

        var text: String { (ordinal.map(String.init) ?? "") + Self.names[weekday] }

        static let names = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    }

    /// UNTIL as written: a DATE-TIME (UTC, or local in the rule's zone) or a DATE.
    enum Until: Hashable, Sendable {
        case dateTime(ICalendarTime)
        /// Through the end of that local day.
        case date(Int)
    }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    var until: Until?
    /// Sorted and without repeats, like every list below.
    var months: [Int] = []
    var monthDays: [Int] = []
    var weekdays: [WeekdayNumber] = []
    var setPositions: [Int] = []
    /// 0 is Monday, the default.
    var weekStart = 0

    /// The largest INTERVAL and COUNT: nine digits, so arithmetic on them never overflows.
    static let maximumNumber = 999_999_999

    /// The parts chores support.
    private enum Part: String {
        case frequency = "FREQ"
        case interval = "INTERVAL"
        case count = "COUNT"
        case until = "UNTIL"
        case months = "BYMONTH"
        case monthDays = "BYMONTHDAY"
        case weekdays = "BYDAY"
        case setPositions = "BYSETPOS"
        case weekStart = "WKST"

        /// Its bit in the set of parts seen.
        var bit: UInt16 {
            switch self {
            case .frequency: 0
            case .interval: 1
            case .count: 2
            case .until: 3
            case .months: 4
            case .monthDays: 5
            case .weekdays: 6
            case .setPositions: 7
            case .weekStart: 8
            }
        }
    }

    /// The parts that RFC 5545 defines and chores do not support, with the reason given.
    private static let unsupportedParts: [String: String] = [
        "BYSECOND": "a chore recurs at the time of day of its DTSTART.",
        "BYMINUTE": "a chore recurs at the time of day of its DTSTART.",
        "BYHOUR": "a chore recurs at the time of day of its DTSTART.",
        "BYYEARDAY": "use BYMONTH with BYMONTHDAY.",
        "BYWEEKNO": "use BYMONTH, BYMONTHDAY or BYDAY.",
        "RSCALE": "only the Gregorian calendar is supported.",
        "SKIP": "invalid dates are always skipped, as RFC 5545 says.",
    ]

    private init(frequency: Frequency) {
        self.frequency = frequency
    }

    /// Parses an RRULE value such as `FREQ=MONTHLY;BYDAY=-1FR` (names and values in either case).
    ///
    /// - Throws: ``RecurrenceError`` naming the part at fault.
    init(_ value: ArraySlice<UInt8>) throws(RecurrenceError) {
        var seen: UInt16 = 0
        var frequency: Frequency?
        var pattern = RecurrencePattern(frequency: .daily)
        // Names and values ignore case.
        let value = ArraySlice(value.map(\.asciiUppercased))
        for piece in value.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")), piece.startIndex != equals else {
                throw .malformed("RRULE", "RRULE is a list of NAME=VALUE parts separated by semicolons, such as FREQ=WEEKLY;BYDAY=MO.")
            }
            let name = String(decoding: piece[..<equals], as: UTF8.self)
            let text = piece[(equals + 1)...]
            guard let part = Part(rawValue: name) else {
                if let reason = Self.unsupportedParts[name] { throw .unsupported(name, "\(name) is not supported: \(reason)") }
                throw .unsupported(name, "\(name) is not an RRULE part chores support.")
            }
            guard seen & UInt16(1) << part.bit == 0 else { throw .malformed(name, "\(name) appears more than once.") }
            seen |= UInt16(1) << part.bit
            switch part {
            case .frequency:
                let word = String(decoding: text, as: UTF8.self)
                guard let value = Frequency(rawValue: word) else {
                    if ["SECONDLY", "MINUTELY", "HOURLY"].contains(word) {
                        throw .unsupported(name, "FREQ=\(word) is not supported: chores recur DAILY, WEEKLY, MONTHLY or YEARLY.")
                    }
                    throw .malformed(name, "FREQ is DAILY, WEEKLY, MONTHLY or YEARLY.")
                }
                frequency = value
            case .interval:
                pattern.interval = try Self.number(text, part: name, in: 1...Self.maximumNumber)
            case .count:
                pattern.count = try Self.number(text, part: name, in: 1...Self.maximumNumber)
            case .until:
                if let time = ICalendarTime(text, form: .floating) {
                    pattern.until = .dateTime(time)
                } else if let day = ICalendarTime.dayNumber(date: text) {
                    pattern.until = .date(day)
                } else {
                    throw .malformed(name, "UNTIL is a date and time such as 20261231T235959Z, from year 1900 to 9999.")
                }
            case .months:
                pattern.months = try Self.numbers(text, part: name, in: 1...12, "BYMONTH takes months 1 to 12.")
            case .monthDays:
                pattern.monthDays = try Self.numbers(text, part: name, in: 1...31, "BYMONTHDAY takes days 1 to 31 or -31 to -1.", signed: true)
            case .setPositions:
                pattern.setPositions = try Self.numbers(
                    text, part: name, in: 1...366, "BYSETPOS takes positions 1 to 366 or -366 to -1.", signed: true)
            case .weekdays:
                pattern.weekdays = try Self.weekdayNumbers(text)
            case .weekStart:
                guard let weekday = Self.weekday(text) else {
                    throw .malformed(name, "WKST is a weekday: MO, TU, WE, TH, FR, SA or SU.")
                }
                pattern.weekStart = weekday
            }
        }
        guard let frequency else { throw .malformed("FREQ", "FREQ is required: DAILY, WEEKLY, MONTHLY or YEARLY.") }
        pattern.frequency = frequency
        try pattern.checkCombinations()
        self = pattern
    }

    /// The rules of RFC 5545 §3.3.10 that tie parts together.
    private func checkCombinations() throws(RecurrenceError) {
        if count != nil && until != nil {
            throw .malformed("COUNT", "COUNT and UNTIL cannot both end a rule: keep one.")
        }
        if frequency == .weekly && !monthDays.isEmpty {
            throw .malformed("BYMONTHDAY", "BYMONTHDAY does not go with FREQ=WEEKLY.")
        }
        if frequency == .daily || frequency == .weekly, weekdays.contains(where: { $0.ordinal != nil }) {
            throw .malformed("BYDAY", "BYDAY takes ordinals such as -1FR only with FREQ=MONTHLY or YEARLY.")
        }
        if !setPositions.isEmpty && months.isEmpty && monthDays.isEmpty && weekdays.isEmpty {
            throw .malformed("BYSETPOS", "BYSETPOS picks from the dates of BYMONTH, BYMONTHDAY or BYDAY; give one of them.")
        }
    }

    private static func number(_ text: ArraySlice<UInt8>, part: String, in range: ClosedRange<Int>) throws(RecurrenceError) -> Int {
        guard let value = unsignedNumber(text, maximumDigits: 9), range.contains(value) else {
            throw .malformed(part, "\(part) is a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    /// A comma-separated list of numbers in `range` (or, when `signed`, their negatives too),
    /// sorted and without repeats.
    private static func numbers(
        _ text: ArraySlice<UInt8>, part: String, in range: ClosedRange<Int>, _ message: String, signed: Bool = false
    ) throws(RecurrenceError) -> [Int] {
        var values: [Int] = []
        for item in text.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let value = signedNumber(item), range.contains(abs(value)), signed || value > 0 else { throw .malformed(part, message) }
            if !values.contains(value) { values.append(value) }
        }
        return values.sorted()
    }

    /// `[+|-]digits` (at most three digits), or nil.
    private static func signedNumber(_ text: ArraySlice<UInt8>) -> Int? {
        guard let first = text.first else { return nil }
        let sign = first == UInt8(ascii: "-") ? -1 : 1
        let digits = first == UInt8(ascii: "-") || first == UInt8(ascii: "+") ? text.dropFirst() : text
        return unsignedNumber(digits, maximumDigits: 3).map { sign * $0 }
    }

    /// One to `maximumDigits` ASCII digits, or nil.
    private static func unsignedNumber(_ text: ArraySlice<UInt8>, maximumDigits: Int) -> Int? {
        guard (1...maximumDigits).contains(text.count) else { return nil }
        var value = 0
        for byte in text {
            guard byte.isASCIIDigit else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `MO`…`SU` (upper-case) as 0…6.
    private static func weekday(_ text: ArraySlice<UInt8>) -> Int? {
        guard text.count == 2 else { return nil }
        return WeekdayNumber.names.firstIndex { $0.utf8.elementsEqual(text) }
    }

    private static func weekdayNumbers(_ text: ArraySlice<UInt8>) throws(RecurrenceError) -> [WeekdayNumber] {
        var values: [WeekdayNumber] = []
        for item in text.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let weekday = weekday(item.suffix(2)) else {
                throw .malformed("BYDAY", "BYDAY lists weekdays such as MO,WE,FR, each with an optional ordinal such as -1FR.")
            }
            let ordinalText = item.dropLast(2)
            var ordinal: Int?
            if !ordinalText.isEmpty {
                guard let value = signedNumber(ordinalText), (1...53).contains(abs(value)) else {
                    throw .malformed("BYDAY", "A BYDAY ordinal is 1 to 53 or -53 to -1, as in 2MO or -1FR.")
                }
                ordinal = value
            }
            let entry = WeekdayNumber(weekday: weekday, ordinal: ordinal)
            if !values.contains(entry) { values.append(entry) }
        }
        return values.sorted()
    }

    /// The canonical RRULE value: upper-case, parts in a fixed order, lists sorted, defaults
    /// (INTERVAL=1, WKST=MO) left out.
    var text: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if let count { parts.append("COUNT=\(count)") }
        switch until {
        case .dateTime(let time): parts.append("UNTIL=" + time.text)
        case .date(let day): parts.append("UNTIL=" + ICalendarTime.dateText(day))
        case nil: break
        }
        func list(_ name: String, _ values: [String]) {
            if !values.isEmpty { parts.append(name + "=" + values.joined(separator: ",")) }
        }
        list("BYMONTH", months.map(String.init))
        list("BYMONTHDAY", monthDays.map(String.init))
        list("BYDAY", weekdays.map(\.text))
        list("BYSETPOS", setPositions.map(String.init))
        if weekStart != 0 { parts.append("WKST=" + WeekdayNumber.names[weekStart]) }
        return parts.joined(separator: ";")
    }
}
