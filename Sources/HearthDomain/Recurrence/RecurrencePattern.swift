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
    init(_ value: String) throws(RecurrenceError) {
        var seen = Set<String>()
        var frequency: Frequency?
        var pattern = RecurrencePattern(frequency: .daily)
        for piece in value.split(separator: ";", omittingEmptySubsequences: false) {
            guard let equals = piece.firstIndex(of: "="), piece.startIndex != equals else {
                throw .malformed("RRULE", "RRULE is a list of NAME=VALUE parts separated by semicolons, such as FREQ=WEEKLY;BYDAY=MO.")
            }
            let name = piece[..<equals].uppercased()
            let text = piece[piece.index(after: equals)...].uppercased()
            guard seen.insert(name).inserted else { throw .malformed(name, "\(name) appears more than once.") }
            switch name {
            case "FREQ":
                guard let value = Frequency(rawValue: text) else {
                    if ["SECONDLY", "MINUTELY", "HOURLY"].contains(text) {
                        throw .unsupported(name, "FREQ=\(text) is not supported: chores recur DAILY, WEEKLY, MONTHLY or YEARLY.")
                    }
                    throw .malformed(name, "FREQ is DAILY, WEEKLY, MONTHLY or YEARLY.")
                }
                frequency = value
            case "INTERVAL":
                pattern.interval = try Self.number(text, part: name, in: 1...Self.maximumNumber)
            case "COUNT":
                pattern.count = try Self.number(text, part: name, in: 1...Self.maximumNumber)
            case "UNTIL":
                if let time = ICalendarTime(text, form: .floating) {
                    pattern.until = .dateTime(time)
                } else if let day = ICalendarTime.dayNumber(date: text) {
                    pattern.until = .date(day)
                } else {
                    throw .malformed(name, "UNTIL is a date and time such as 20261231T235959Z, from year 1900 to 9999.")
                }
            case "BYMONTH":
                pattern.months = try Self.numbers(text, part: name, allowing: { (1...12).contains($0) }, "BYMONTH takes months 1 to 12.")
            case "BYMONTHDAY":
                pattern.monthDays = try Self.numbers(
                    text, part: name, allowing: { (1...31).contains(abs($0)) }, "BYMONTHDAY takes days 1 to 31 or -31 to -1.")
            case "BYSETPOS":
                pattern.setPositions = try Self.numbers(
                    text, part: name, allowing: { (1...366).contains(abs($0)) }, "BYSETPOS takes positions 1 to 366 or -366 to -1.")
            case "BYDAY":
                pattern.weekdays = try Self.weekdayNumbers(text)
            case "WKST":
                guard let weekday = WeekdayNumber.names.firstIndex(of: text) else {
                    throw .malformed(name, "WKST is a weekday: MO, TU, WE, TH, FR, SA or SU.")
                }
                pattern.weekStart = weekday
            default:
                if let reason = Self.unsupportedParts[name] { throw .unsupported(name, "\(name) is not supported: \(reason)") }
                throw .unsupported(name, "\(name) is not an RRULE part chores support.")
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

    private static func number(_ text: String, part: String, in range: ClosedRange<Int>) throws(RecurrenceError) -> Int {
        guard text.utf8.count <= 9, text.utf8.allSatisfy(\.isASCIIDigit), let value = Int(text), range.contains(value) else {
            throw .malformed(part, "\(part) is a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    /// A comma-separated list of signed numbers, sorted and without repeats.
    private static func numbers(
        _ text: String, part: String, allowing isAllowed: (Int) -> Bool, _ message: String
    ) throws(RecurrenceError) -> [Int] {
        var values = Set<Int>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = signedNumber(item), isAllowed(value) else { throw .malformed(part, message) }
            values.insert(value)
        }
        return values.sorted()
    }

    /// `[+|-]digits` (at most three digits), or nil.
    private static func signedNumber(_ text: Substring) -> Int? {
        var digits = text
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard (1...3).contains(digits.utf8.count), digits.utf8.allSatisfy(\.isASCIIDigit), let value = Int(digits) else { return nil }
        return sign * value
    }

    private static func weekdayNumbers(_ text: String) throws(RecurrenceError) -> [WeekdayNumber] {
        var values = Set<WeekdayNumber>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard item.utf8.count >= 2, let weekday = WeekdayNumber.names.firstIndex(of: String(item.suffix(2))) else {
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
            values.insert(WeekdayNumber(weekday: weekday, ordinal: ordinal))
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
