import Support

/// What the expansion reads: an RRULE's filters as bit masks, with the values RFC 5545 takes
/// from DTSTART when the rule leaves them out, computed once at parse time.
///
/// A day of a month is a bit (bit 1 is the 1st), so filtering a month is a few AND operations
/// and its days come out in order by counting trailing zeros.
struct RecurrencePlan: Sendable {
    let frequency: RecurrencePattern.Frequency
    let interval: Int
    /// Bit m for each month m that BYMONTH allows (all when absent).
    let months: UInt16
    /// Whether BYMONTHDAY (given or taken from DTSTART) filters days.
    let filtersMonthDays: Bool
    /// Bit d for each day d of BYMONTHDAY.
    let positiveMonthDays: UInt32
    /// Bit n for each negative value -n of BYMONTHDAY (-1 is the last day).
    let negativeMonthDays: UInt32
    /// Whether BYDAY (given or taken from DTSTART) filters days.
    let filtersWeekdays: Bool
    /// Bit w for each weekday of BYDAY without an ordinal (0 is Monday).
    let weekdays: UInt8
    /// BYDAY entries with an ordinal, such as (4, -1) for -1FR.
    let ordinals: [(weekday: Int, ordinal: Int)]
    /// Whether YEARLY ordinals count within the year (no BYMONTH) rather than within each month.
    let ordinalsCountInYear: Bool
    let setPositions: [Int]
    let weekStart: Int

    /// The days of a month that fall on one weekday, by how many days after the 1st it first comes.
    private static let weekdayDays: [UInt32] = (0..<7).map { offset in
        stride(from: offset + 1, through: 31, by: 7).reduce(0) { $0 | UInt32(1) << $1 }
    }

    /// ``months`` when BYMONTH allows every month.
    static let everyMonth: UInt16 = 0b1_1111_1111_1110

    /// The days of a month of `length` days.
    static func allDays(_ length: Int) -> UInt32 { UInt32.max >> (31 - length) & ~1 }

    init(_ pattern: RecurrencePattern, startDayNumber: Int) {
        let start = CivilCalendar.date(fromDayNumber: startDayNumber)
        var months = pattern.months
        var monthDays = pattern.monthDays
        var weekdays = pattern.weekdays
        // RFC 5545 §3.3.10: what the rule does not say comes from DTSTART, as python-dateutil
        // and every calendar take it: the weekday of a WEEKLY rule, the day of a MONTHLY one,
        // the month and day of a YEARLY one.
        if monthDays.isEmpty && weekdays.isEmpty {
            switch pattern.frequency {
            case .daily: break
            case .weekly: weekdays = [.init(weekday: CivilCalendar.weekday(ofDayNumber: startDayNumber), ordinal: nil)]
            case .monthly: monthDays = [start.day]
            case .yearly:
                if months.isEmpty { months = [start.month] }
                monthDays = [start.day]
            }
        }
        frequency = pattern.frequency
        interval = pattern.interval
        self.months = months.isEmpty ? Self.everyMonth : months.reduce(0) { $0 | UInt16(1) << $1 }
        filtersMonthDays = !monthDays.isEmpty
        positiveMonthDays = monthDays.filter { $0 > 0 }.reduce(0) { $0 | UInt32(1) << $1 }
        negativeMonthDays = monthDays.filter { $0 < 0 }.reduce(0) { $0 | UInt32(1) << -$1 }
        filtersWeekdays = !weekdays.isEmpty
        self.weekdays = weekdays.filter { $0.ordinal == nil }.reduce(UInt8(0)) { $0 | UInt8(1) << $1.weekday }
        ordinals = weekdays.compactMap { entry in entry.ordinal.map { (entry.weekday, $0) } }
        ordinalsCountInYear = pattern.frequency == .yearly && pattern.months.isEmpty
        setPositions = pattern.setPositions
        weekStart = pattern.weekStart
    }

    /// The days of month `month` (first day `first`, `length` days) that pass BYMONTH,
    /// BYMONTHDAY and BYDAY. `yearOrdinalDays` are the days YEARLY ordinals counted within the year
    /// picked (day numbers), when they count so.
    func days(month: Int, first: Int, length: Int, yearOrdinalDays: [Int]) -> UInt32 {
        guard months & UInt16(1) << month != 0 else { return 0 }
        var mask = Self.allDays(length)
        if filtersMonthDays {
            var days = positiveMonthDays
            var negatives = negativeMonthDays
            while negatives != 0 {
                let fromEnd = negatives.trailingZeroBitCount
                if fromEnd <= length { days |= UInt32(1) << (length + 1 - fromEnd) }
                negatives &= negatives - 1
            }
            mask &= days
        }
        if filtersWeekdays && mask != 0 {
            let firstWeekday = CivilCalendar.weekday(ofDayNumber: first)
            var byDay: UInt32 = 0
            for weekday in 0..<7 where weekdays & UInt8(1) << weekday != 0 {
                byDay |= Self.weekdayDays[(weekday - firstWeekday + 7) % 7]
            }
            if ordinalsCountInYear {
                for day in yearOrdinalDays where day >= first && day < first + length { byDay |= UInt32(1) << (day - first + 1) }
            } else {
                for (weekday, ordinal) in ordinals {
                    let day: Int
                    if ordinal > 0 {
                        day = 1 + (weekday - firstWeekday + 7) % 7 + (ordinal - 1) * 7
                    } else {
                        let lastWeekday = (firstWeekday + length - 1) % 7
                        day = length - (lastWeekday - weekday + 7) % 7 + (ordinal + 1) * 7
                    }
                    if day >= 1 && day <= length { byDay |= UInt32(1) << day }
                }
            }
            mask &= byDay
        }
        return mask
    }

    /// The days (day numbers) the ordinals of a YEARLY rule without BYMONTH pick in `year`.
    func yearOrdinalDays(year: Int) -> [Int] {
        guard ordinalsCountInYear, !ordinals.isEmpty else { return [] }
        let first = CivilCalendar.dayNumber(year: year, month: 1, day: 1)
        let length = CivilCalendar.isLeapYear(year) ? 366 : 365
        let firstWeekday = CivilCalendar.weekday(ofDayNumber: first)
        let lastWeekday = (firstWeekday + length - 1) % 7
        return ordinals.compactMap { weekday, ordinal in
            let index =
                ordinal > 0
                ? (weekday - firstWeekday + 7) % 7 + (ordinal - 1) * 7
                : length - 1 - (lastWeekday - weekday + 7) % 7 + (ordinal + 1) * 7
            return index >= 0 && index < length ? first + index : nil
        }
    }
}
