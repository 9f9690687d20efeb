import Support

/// Walks a rule's recurrence set in time order, one instant at a time.
///
/// It goes block by block (a month for DAILY rules, the rule's own period otherwise), computes
/// the block's candidate days with ``RecurrencePlan``'s masks, picks BYSETPOS's, then turns
/// each day at DTSTART's wall-clock time into an instant through the zone's transitions,
/// remembering the transition it used. Nothing here allocates per candidate but the two small
/// buffers it reuses.
struct RecurrenceExpander {
    private let rule: RecurrenceRule
    private let plan: RecurrencePlan
    /// The index of the next block: blocks are numbered from DTSTART's.
    private var block: Int
    private var candidates = DayBuffer()
    private var picked = DayBuffer()
    private var position = 0
    /// Occurrences the rule generated so far, for COUNT (those EXDATE removes count too, as
    /// RFC 5545 says).
    private var generated = 0
    private var lastInstant = Int.min
    /// The last day a candidate fell on, or where the walk started: the search ends after
    /// ``searchWindow`` days without one.
    private var lastProgressDay: Int
    private var startPending: Bool
    /// The day from which a walk that skipped ahead under COUNT takes candidates.
    private var countedBefore = Int.min
    /// The index and first day of the block ``picked`` holds.
    private var filledBlock = 0
    private var blockFirstDay = 0
    private var finished = false
    private var zoneHint = -1
    private var exceptionIndex = 0
    private let searchWindow: Int

    /// A walk from the start of the series, or from local day `day` when that is later:
    /// without COUNT it starts at the block holding that day, the occurrences before it unseen;
    /// with COUNT it counts them first (``skipCounting(to:)``).
    init(_ rule: RecurrenceRule, fromDay day: Int) {
        self.rule = rule
        plan = rule.plan
        // The Gregorian calendar, weekdays included, repeats every 400 years and the visited
        // periods every INTERVAL of those cycles: a rule with no candidate in that span will never
        // have one (FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30). One more period covers a first one
        // that DTSTART cut short.
        searchWindow = CivilCalendar.daysPerCycle * plan.interval + 366
        block = 0
        startPending = true
        lastProgressDay = rule.dtstart.dayNumber
        guard day > rule.dtstart.dayNumber else { return }
        let target = Self.block(holding: day, of: rule)
        if rule.count == nil {
            block = target
            startPending = target == 0
            lastProgressDay = day
        } else if target > 0 {
            skipCounting(to: day)
        }
    }

    /// COUNT counts from DTSTART, so a walk that starts at local day `day` counts the
    /// candidates before it by their number alone, without turning them into instants, and
    /// goes on from the block holding the first candidate at or after it.
    private mutating func skipCounting(to day: Int) {
        guard let count = rule.count else { return }
        startPending = false
        generated = 1
        countedBefore = day
        while !finished {
            fillNextBlock()
            var reached = blockFirstDay > day
            for index in 0..<picked.count where picked[index] > rule.dtstart.dayNumber {
                let candidate = picked[index]
                if candidate >= day || candidate > ICalendarTime.lastDayNumber {
                    reached = true
                    break
                }
                generated += 1
                lastProgressDay = candidate
            }
            if generated >= count { finished = true }
            if reached {
                // Walk this block again, from `day` on.
                block = filledBlock
                break
            }
        }
        picked.removeAll()
        position = 0
    }

    /// The block of a rule that holds local day `day` (at or after DTSTART's).
    private static func block(holding day: Int, of rule: RecurrenceRule) -> Int {
        let plan = rule.plan
        let date = CivilCalendar.date(fromDayNumber: day)
        let months = CivilCalendar.monthIndex(year: date.year, month: date.month) - rule.startMonthIndex
        switch plan.frequency {
        case .daily: return months
        case .weekly: return (day - rule.firstWeekStart) / (7 * plan.interval)
        case .monthly: return months / plan.interval
        case .yearly: return (date.year - rule.startYear) / plan.interval
        }
    }

    /// The next instant of the recurrence set (seconds since 1970-01-01 UTC), or nil after the last.
    mutating func next() -> Int? {
        if startPending {
            startPending = false
            // RFC 5545 §3.3.10: DTSTART is always the first occurrence, and counts towards COUNT.
            if let instant = accept(instant: rule.startInstant) { return instant }
        }
        while !finished {
            while position < picked.count {
                let day = picked[position]
                position += 1
                // DTSTART came first; what a first period holds before it is not part of the set.
                // Candidates before `countedBefore` were counted without being walked.
                guard day > rule.dtstart.dayNumber, day >= countedBefore else { continue }
                lastProgressDay = day
                guard day <= ICalendarTime.lastDayNumber else {
                    finished = true
                    return nil
                }
                let local = day * CivilCalendar.secondsPerDay + rule.dtstart.secondOfDay
                if let instant = accept(instant: rule.timeZone.instant(forLocal: local, hint: &zoneHint)) { return instant }
                if finished { return nil }
            }
            fillNextBlock()
        }
        return nil
    }

    /// Applies UNTIL, COUNT and EXDATE to a generated occurrence, and drops a repeat of the last
    /// instant (two wall-clock times one instant names, as on the day Samoa skipped).
    private mutating func accept(instant: Int) -> Int? {
        if let until = rule.untilInstant, instant > until {
            finished = true
            return nil
        }
        generated += 1
        if let count = rule.count, generated > count {
            finished = true
            return nil
        }
        guard instant > lastInstant else { return nil }
        // Instants come in increasing order: the excluded ones are passed by with a cursor.
        let exceptions = rule.exceptions
        while exceptionIndex < exceptions.count && exceptions[exceptionIndex] < instant { exceptionIndex += 1 }
        if exceptionIndex < exceptions.count && exceptions[exceptionIndex] == instant { return nil }
        lastInstant = instant
        return instant
    }

    /// Computes the candidates of the next block into ``picked``, or finishes.
    private mutating func fillNextBlock() {
        candidates.removeAll()
        picked.removeAll()
        position = 0
        let firstDay: Int
        switch plan.frequency {
        case .daily: firstDay = fillDailyMonth()
        case .weekly: firstDay = fillWeek()
        case .monthly:
            let (year, month) = monthOf(rule.startMonthIndex + block * plan.interval)
            firstDay = CivilCalendar.dayNumber(year: year, month: month, day: 1)
            appendDays(of: month, year: year, first: firstDay, yearOrdinalDays: [])
        case .yearly:
            let year = rule.startYear + block * plan.interval
            firstDay = CivilCalendar.dayNumber(year: min(year, ICalendarTime.years.upperBound + 1), month: 1, day: 1)
            if year <= ICalendarTime.years.upperBound {
                let ordinalDays = plan.yearOrdinalDays(year: year)
                for month in 1...12 {
                    appendDays(of: month, year: year, first: CivilCalendar.dayNumber(year: year, month: month, day: 1), yearOrdinalDays: ordinalDays)
                }
            }
        }
        filledBlock = block
        blockFirstDay = firstDay
        block += 1
        if firstDay > ICalendarTime.lastDayNumber || firstDay - lastProgressDay > searchWindow {
            finished = true
            return
        }
        pickSetPositions()
    }

    /// DAILY rules go a month at a time: the month's days that pass the filters and fall on
    /// the INTERVAL's beat.
    private mutating func fillDailyMonth() -> Int {
        var (year, month) = monthOf(rule.startMonthIndex + block)
        var first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
        var length = CivilCalendar.daysInMonth(year: year, month: month)
        // The first day on the beat in or after this month.
        let offset = (first - rule.dtstart.dayNumber) % plan.interval
        var beat = offset <= 0 ? -offset : plan.interval - offset
        if beat >= length {
            // A long INTERVAL: go straight to the month of the next beat.
            let date = CivilCalendar.date(fromDayNumber: first + beat)
            block = CivilCalendar.monthIndex(year: date.year, month: date.month) - rule.startMonthIndex
            (year, month, beat) = (date.year, date.month, date.day - 1)
            first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
            length = CivilCalendar.daysInMonth(year: year, month: month)
        }
        var mask = plan.days(month: month, first: first, length: length, yearOrdinalDays: [])
        if plan.interval > 1 && mask != 0 {
            var onBeat: UInt32 = 0
            while beat < length {
                onBeat |= UInt32(1) << (beat + 1)
                beat += plan.interval
            }
            mask &= onBeat
        }
        appendBits(mask, first: first)
        return first
    }

    /// WEEKLY rules: the week (from WKST) INTERVAL weeks after the last.
    private mutating func fillWeek() -> Int {
        let first = rule.firstWeekStart + block * 7 * plan.interval
        for index in 0..<7 {
            let weekday = (plan.weekStart + index) % 7
            guard plan.weekdays & UInt8(1) << weekday != 0 else { continue }
            let day = first + index
            if plan.months != RecurrencePlan.everyMonth {
                guard plan.months & UInt16(1) << CivilCalendar.date(fromDayNumber: day).month != 0 else { continue }
            }
            candidates.append(day)
        }
        return first
    }

    private mutating func appendDays(of month: Int, year: Int, first: Int, yearOrdinalDays: [Int]) {
        let length = CivilCalendar.daysInMonth(year: year, month: month)
        appendBits(plan.days(month: month, first: first, length: length, yearOrdinalDays: yearOrdinalDays), first: first)
    }

    private mutating func appendBits(_ mask: UInt32, first: Int) {
        var remaining = mask
        while remaining != 0 {
            candidates.append(first + remaining.trailingZeroBitCount - 1)
            remaining &= remaining - 1
        }
    }

    /// BYSETPOS: the n-th (or n-th from last) of the block's candidates, in time order. A
    /// DAILY rule's period is one day, so only 1 and -1 can pick it.
    private mutating func pickSetPositions() {
        guard !plan.setPositions.isEmpty else {
            swap(&candidates, &picked)
            return
        }
        if plan.frequency == .daily {
            if plan.setPositions.contains(1) || plan.setPositions.contains(-1) { swap(&candidates, &picked) }
            return
        }
        let count = candidates.count
        for position in plan.setPositions {
            let index = position > 0 ? position - 1 : count + position
            if index >= 0 && index < count { picked.append(candidates[index]) }
        }
        picked.sortRemovingRepeats()
    }

    private func monthOf(_ monthIndex: Int) -> (year: Int, month: Int) {
        let year = CivilCalendar.floorDivide(monthIndex, 12)
        return (year, monthIndex - year * 12 + 1)
    }
}

/// The days of one block, in a buffer that grows as the walk needs it and is kept from block to
/// block (a YEARLY block holds at most 366 candidates, most blocks a handful).
private struct DayBuffer {
    private var days: [Int] = []

    var count: Int { days.count }

    subscript(index: Int) -> Int { days[index] }

    mutating func append(_ day: Int) {
        days.append(day)
    }

    mutating func removeAll() {
        days.removeAll(keepingCapacity: true)
    }

    /// Sorts the days and drops repeats (BYSETPOS=1,-1 on a one-day block picks it twice).
    mutating func sortRemovingRepeats() {
        days.sort()
        var unique = 0
        for index in days.indices where index == 0 || days[index] != days[index - 1] {
            days[unique] = days[index]
            unique += 1
        }
        days.removeLast(days.count - unique)
    }
}
