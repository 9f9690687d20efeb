@testable import HearthDomain
import Support

/// Random recurrence texts in the zones with unusual transitions, for the comparison with
/// python-dateutil and the parser's mutation test.
///
/// Half the start dates fall within days of a transition of their zone (and on Samoa's skipped
/// day), half the start times at the hours transitions happen. Parts come in random order, and
/// sometimes in lower case, with CRLF or folded lines.
///
/// Left out, each because python-dateutil (2.9) departs from RFC 5545 there and the engine
/// follows the RFC:
/// - WEEKLY rules with BYSETPOS whose DTSTART is not on WKST: dateutil applies BYSETPOS to the
///   first week from DTSTART on only, the RFC to the whole week (then drops what is before DTSTART).
/// - BYDAY mixing plain weekdays and ordinals (`MO,-1FR`): dateutil requires a day to match
///   both kinds, the RFC either.
/// - EXDATE on Samoa's 30 and 31 December 2011, whose 10:00 name one instant: dateutil compares
///   an EXDATE in the rule's zone by wall clock, so it removes one of the pair, not the instant.
/// Rules that can never match within years (`FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31`) are avoided
/// too, only because dateutil takes seconds to search for them; the hand-written tests cover them.
struct RecurrenceRuleGenerator {
    /// One generated rule: its text, the household zone it is parsed with, and an instant to
    /// ask for the occurrences after.
    struct Case {
        let text: String
        let defaultZone: String
        let after: Int
    }

    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia", "Asia/Kathmandu"]
    static let weekdayNames = RecurrencePattern.WeekdayNumber.names
    static let firstDay = CivilCalendar.dayNumber(year: 1995, month: 1, day: 1)
    static let lastDay = CivilCalendar.dayNumber(year: 2045, month: 12, day: 31)
    static let samoasPair = Set([CivilCalendar.dayNumber(year: 2011, month: 12, day: 30), CivilCalendar.dayNumber(year: 2011, month: 12, day: 31)])

    var random: SeededRandom
    /// Local days on which each zone changes its offset, 1995–2045.
    let transitionDays: [String: [Int]]

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        var days: [String: [Int]] = [:]
        for name in Self.zones {
            let zone = TimeZoneRules.named(name)!
            days[name] = zone.storage.transitions.indices.compactMap { index in
                let day = CivilCalendar.floorDivide(zone.storage.transitions[index] + zone.storage.offsets[index], 86_400)
                return day >= Self.firstDay && day <= Self.lastDay ? day : nil
            }
        }
        transitionDays = days
    }

    mutating func make() -> Case {
        let zoneName = random.pick(Self.zones)
        var day = random.int(Self.firstDay...Self.lastDay)
        if random.chance(0.5), let days = transitionDays[zoneName], !days.isEmpty {
            day = random.pick(days + [CivilCalendar.dayNumber(year: 2011, month: 12, day: 30)]) + random.int(-6...2)
        }
        let secondOfDay =
            random.chance(0.5)
            ? random.pick([0, 1, 2, 3, 23]) * 3600 + random.pick([0, 15, 30, 45]) * 60 : random.int(0...86_399)
        let form = random.pick(["zone", "zone", "zone", "zone", "floating", "utc"])
        let ruleZone = form == "utc" ? TimeZoneRules.utc : TimeZoneRules.named(zoneName)!
        let start = ICalendarTime(dayNumber: day, secondOfDay: secondOfDay, form: form == "utc" ? .utc : .floating)
        var hint = -1
        let startInstant = ruleZone.instant(forLocal: start.localSeconds, hint: &hint)

        let frequency = random.pick(["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"])
        var parts = ["FREQ=" + frequency]
        let interval = random.chance(0.6) ? 1 : random.chance(0.8) ? random.int(1...5) : random.int(6...12)
        if interval != 1 || random.chance(0.2) { parts.append("INTERVAL=\(interval)") }
        let ending = random.int(0...9)
        if ending < 4 {
            parts.append("COUNT=\(random.int(1...60))")
        } else if ending < 6 {
            let until = startInstant + random.int(0...(3 * 366 * 86_400))
            let time = ICalendarTime(
                dayNumber: CivilCalendar.floorDivide(until, 86_400), secondOfDay: until - CivilCalendar.floorDivide(until, 86_400) * 86_400,
                form: .utc)
            parts.append("UNTIL=" + time.text)
        }
        var months = makeMonths(frequency)
        if frequency == "MONTHLY" && !months.isEmpty {
            // A month the INTERVAL's beat reaches, or the rule never matches.
            let startMonth = CivilCalendar.date(fromDayNumber: day).month
            let step = Self.greatestCommonDivisor(interval, 12)
            months = Array(Set(months + [(startMonth - 1 + step * random.int(0...(12 / step - 1))) % 12 + 1])).sorted()
        }
        if !months.isEmpty { parts.append("BYMONTH=" + months.map(String.init).joined(separator: ",")) }
        let monthDays = makeMonthDays(frequency, months: months)
        if !monthDays.isEmpty { parts.append("BYMONTHDAY=" + monthDays.map(String.init).joined(separator: ",")) }
        let weekdays = makeWeekdays(frequency, withMonthDays: !monthDays.isEmpty, withMonths: !months.isEmpty)
        if !weekdays.isEmpty { parts.append("BYDAY=" + weekdays.joined(separator: ",")) }
        if monthDays.isEmpty && weekdays.isEmpty && !months.isEmpty {
            // BYMONTHDAY defaults to DTSTART's day, which BYMONTH=2 alone would never have past the 29th.
            let startDate = CivilCalendar.date(fromDayNumber: day)
            if !months.contains(where: { CivilCalendar.daysInMonth(year: 2024, month: $0) >= startDate.day }) {
                parts[parts.firstIndex { $0.hasPrefix("BYMONTH=") }!] = "BYMONTH=" + (months + [startDate.month]).map(String.init).joined(separator: ",")
            }
        }
        let weekStart = random.chance(0.25) ? random.int(0...6) : 0
        if weekStart != 0 || random.chance(0.1) { parts.append("WKST=" + Self.weekdayNames[weekStart]) }
        let startsOnWeekStart = CivilCalendar.weekday(ofDayNumber: day) == weekStart
        if !(months.isEmpty && monthDays.isEmpty && weekdays.isEmpty), random.chance(0.3), frequency != "WEEKLY" || startsOnWeekStart {
            let plainWeekdays = monthDays.isEmpty && weekdays.allSatisfy { $0.count == 2 } ? weekdays.count : 0
            parts.append("BYSETPOS=" + makeSetPositions(frequency, plainWeekdays: plainWeekdays).map(String.init).joined(separator: ","))
        }

        var lines = [startLine(start, form: form, zone: zoneName), "RRULE:" + shuffledParts(parts)]
        if random.chance(0.3) { lines += exceptionLines(start: start, form: form, zoneName: zoneName, ruleZone: ruleZone, frequency: frequency) }
        let after = startInstant + (random.chance(0.9) ? random.int(-5 * 86_400...3 * 366 * 86_400) : random.int(0...30 * 366 * 86_400))
        return Case(text: dress(lines), defaultZone: zoneName, after: after)
    }

    private mutating func makeMonths(_ frequency: String) -> [Int] {
        guard random.chance(frequency == "YEARLY" ? 0.4 : 0.15) else { return [] }
        return Array(Set((0..<random.int(1...3)).map { _ in random.int(1...12) })).sorted()
    }

    private mutating func makeMonthDays(_ frequency: String, months: [Int]) -> [Int] {
        let probability: Double = ["DAILY": 0.1, "MONTHLY": 0.35, "YEARLY": 0.25][frequency] ?? 0
        guard random.chance(probability) else { return [] }
        let days = Array(
            Set(
                (0..<random.int(1...3)).map { _ in random.pick([1, 2, 15, 28, 29, 30, 31, -1, -2, -3, random.int(-31...31)]) }.filter { $0 != 0 })
        ).sorted()
        // Some day must exist in some month of BYMONTH (in a leap year at least).
        let exists = (months.isEmpty ? Array(1...12) : months).contains { month in
            days.contains { abs($0) <= CivilCalendar.daysInMonth(year: 2024, month: month) }
        }
        return exists ? days : [random.int(1...28)]
    }

    private mutating func makeWeekdays(_ frequency: String, withMonthDays: Bool, withMonths: Bool) -> [String] {
        let probability: Double = ["DAILY": 0.15, "WEEKLY": 0.6, "MONTHLY": 0.45, "YEARLY": 0.35][frequency] ?? 0
        guard random.chance(probability) else { return [] }
        let ordinals = (frequency == "MONTHLY" || frequency == "YEARLY") && !withMonthDays && random.chance(0.5)
        guard ordinals else {
            return Array(Set((0..<random.int(1...4)).map { _ in random.int(0...6) })).sorted().map { Self.weekdayNames[$0] }
        }
        let withinMonth = frequency == "MONTHLY" || withMonths
        return (0..<random.int(1...2)).map { _ in
            let size = withinMonth ? (random.chance(0.1) ? 5 : 4) : 53
            let ordinal = random.int(1...size) * (random.chance(0.4) ? -1 : 1)
            return (ordinal > 0 && random.chance(0.2) ? "+" : "") + String(ordinal) + random.pick(Self.weekdayNames)
        }
    }

    /// Positions that some period has: any of the first few when BYDAY lists `plainWeekdays`
    /// weekdays without ordinals (and no BYMONTHDAY), else the first or the last (a position no
    /// period reaches makes a rule dateutil searches for until its horizon).
    private mutating func makeSetPositions(_ frequency: String, plainWeekdays: Int) -> [Int] {
        let largest =
            switch frequency {
            case "DAILY": 1
            case "WEEKLY": max(1, plainWeekdays)
            case "MONTHLY": plainWeekdays >= 2 ? 4 : 1
            default: plainWeekdays >= 2 ? 8 : 1
            }
        return Array(Set((0..<random.int(1...2)).map { _ in random.int(1...largest) * (random.chance(0.5) ? -1 : 1) })).sorted()
    }

    private mutating func startLine(_ start: ICalendarTime, form: String, zone: String) -> String {
        switch form {
        case "zone": return "DTSTART;TZID=\(zone):" + start.text
        default: return "DTSTART:" + start.text
        }
    }

    /// One to three EXDATE values on or near the rule's beat, in the forms RFC 5545 allows.
    private mutating func exceptionLines(start: ICalendarTime, form: String, zoneName: String, ruleZone: TimeZoneRules, frequency: String)
        -> [String]
    {
        var lines: [String] = []
        for _ in 0..<random.int(1...3) {
            let steps = random.int(0...8)
            let day: Int
            switch frequency {
            case "DAILY": day = start.dayNumber + steps
            case "WEEKLY": day = start.dayNumber + steps * 7 + (random.chance(0.5) ? 0 : random.int(0...6))
            default: day = start.dayNumber + steps * (frequency == "MONTHLY" ? 30 : 365) + random.int(-3...3)
            }
            if zoneName == "Pacific/Apia" && Self.samoasPair.contains(day) { continue }
            let local = ICalendarTime(dayNumber: day, secondOfDay: start.secondOfDay, form: .floating)
            var hint = -1
            let instant = ruleZone.instant(forLocal: local.localSeconds, hint: &hint)
            let utc = ICalendarTime(
                dayNumber: CivilCalendar.floorDivide(instant, 86_400), secondOfDay: instant - CivilCalendar.floorDivide(instant, 86_400) * 86_400,
                form: .utc)
            // Python compares datetimes of different zones as never equal when one is in a gap or
            // a fold (PEP 495), so dateutil cannot remove such an occurrence with a UTC EXDATE.
            let inGapOrFold = Self.readings(of: local.localSeconds, in: ruleZone) != 1
            switch (form, random.int(0...9)) {
            case ("utc", _) where !inGapOrFold || ruleZone.identifier == "UTC", (_, 0...2) where !inGapOrFold:
                lines.append("EXDATE:" + utc.text)
            case ("zone", 3...8): lines.append("EXDATE;TZID=\(zoneName):" + local.text)
            default: lines.append("EXDATE:" + local.text)
            }
        }
        return lines
    }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }

    /// How many instants local time `local` names in `zone`: 0 in a gap, 2 in a fold.
    static func readings(of local: Int, in zone: TimeZoneRules) -> Int {
        let nearby = [local - 2 * 86_400, local, local + 2 * 86_400].map { zone.offset(atInstant: $0) }
        return Set(nearby.filter { zone.offset(atInstant: local - $0) == $0 }).count
    }

    private mutating func shuffledParts(_ parts: [String]) -> String {
        (random.chance(0.5) ? parts : parts.shuffled(using: &random)).joined(separator: ";")
    }

    /// Lower-case names, CRLF line ends and a folded line, now and then.
    private mutating func dress(_ lines: [String]) -> String {
        var lines = lines
        if random.chance(0.15) { lines[1] = lines[1].lowercased() }
        if random.chance(0.15), lines[1].count > 10 {
            let index = lines[1].index(lines[1].startIndex, offsetBy: random.int(1...lines[1].count - 1))
            lines[1].insert(contentsOf: random.chance(0.5) ? "\r\n " : "\n\t", at: index)
        }
        return lines.joined(separator: random.chance(0.2) ? "\r\n" : "\n")
    }
}
