import Support

/// A VTIMEZONE of a calendar file (RFC 5545 §3.6.5), for a TZID the time zone database does not
/// know (Outlook writes `W. Europe Standard Time`): its STANDARD and DAYLIGHT observances turned
/// into the transitions ``TimeZoneRules`` reads, through the year 2100.
struct CalendarTimeZone: Sendable {
    /// The TZID.
    let identifier: String
    /// The component's properties and observances in iCalendar form, stored beside the events.
    let text: String
    let rules: TimeZoneRules
    /// How many STANDARD and DAYLIGHT components it has.
    let observanceCount: Int

    /// One STANDARD or DAYLIGHT component: the lines between its BEGIN and END.
    struct Observance {
        let name: String
        let lines: [ContentLine]
        let beginLine: Int
    }

    /// Transitions are computed through this year; later the last offset holds.
    static let lastYear = 2100

    /// Reads a VTIMEZONE from its own properties and its observances.
    /// - Throws: ``RecurrenceError`` at the line at fault.
    init(properties: [ContentLine], observances: [Observance], beginLine: Int) throws(RecurrenceError) {
        guard let idLine = properties.first(where: { $0.name == "TZID" }), !idLine.value.isEmpty else {
            throw RecurrenceError.malformed("TZID", "A VTIMEZONE needs a TZID.").at(line: beginLine)
        }
        guard !observances.isEmpty else {
            throw RecurrenceError.malformed("VTIMEZONE", "A VTIMEZONE has a STANDARD or DAYLIGHT component.").at(line: beginLine)
        }
        identifier = String(decoding: idLine.value, as: UTF8.self)
        observanceCount = observances.count
        var onsets: [(instant: Int, before: Int, after: Int)] = []
        var kept = [idLine.text]
        for observance in observances {
            let found = try Self.onsets(of: observance)
            onsets += found.onsets
            kept += ICalendarComponent.lines(observance.name, around: found.kept.map(\.text))
        }
        text = ICalendarComponent.lines("VTIMEZONE", around: kept).joined(separator: "\n")
        onsets.sort { $0.instant < $1.instant }
        let first = onsets[0]
        var previous = first.before
        var localLimits: [Int] = []
        for onset in onsets {
            localLimits.append(onset.instant + max(previous, onset.after))
            previous = onset.after
        }
        rules = TimeZoneRules(storage: .init(
            identifier: identifier, transitions: onsets.map(\.instant), offsets: onsets.map(\.after), localLimits: localLimits,
            offsetBefore: first.before, tail: .fixed(previous)))
    }

    /// The instants an observance begins at (its DTSTART, RRULE and RDATE, local times in the
    /// offset before it), with the offsets either side, and the lines it was read from.
    private static func onsets(of observance: Observance) throws(RecurrenceError) -> (onsets: [(instant: Int, before: Int, after: Int)], kept: [ContentLine]) {
        func line(_ name: String) throws(RecurrenceError) -> ContentLine {
            guard let line = observance.lines.first(where: { $0.name == name }) else {
                throw RecurrenceError.malformed(name, "A \(observance.name) component needs \(name).").at(line: observance.beginLine)
            }
            return line
        }
        let startLine = try line("DTSTART")
        let fromLine = try line("TZOFFSETFROM")
        let toLine = try line("TZOFFSETTO")
        guard let before = offset(fromLine.value) else { throw malformedOffset(fromLine) }
        guard let after = offset(toLine.value) else { throw malformedOffset(toLine) }
        let fixed = TimeZoneRules.fixed(offset: before)
        guard let local = ICalendarTime(Self.fromYear1900(startLine.value), form: .floating), local.form == .floating else {
            throw RecurrenceError.malformed("DTSTART", "DTSTART of an observance is a local date and time such as 19701025T030000.")
                .at(line: startLine.lineNumber)
        }
        var kept = [startLine, fromLine, toLine]
        var instants = [local.localSeconds - before]
        let end = CivilCalendar.dayNumber(year: lastYear + 1, month: 1, day: 1) * CivilCalendar.secondsPerDay
        for ruleLine in observance.lines where ruleLine.name == "RRULE" {
            let pattern: RecurrencePattern
            do {
                pattern = try RecurrencePattern(ruleLine.value)
            } catch {
                throw error.at(line: ruleLine.lineNumber)
            }
            let rule = RecurrenceRule(
                timeZone: fixed, pattern: pattern, start: local, untilInstant: RecurrenceRule.untilInstant(of: pattern, in: fixed),
                exceptionTimes: [], exceptions: [])
            instants += rule.occurrences(after: rule.start, before: .init(timeIntervalSince1970: Double(end)), limit: 1000).map {
                Int($0.timeIntervalSince1970)
            }
            kept.append(ruleLine)
        }
        for dateLine in observance.lines where dateLine.name == "RDATE" {
            guard let values = try? dateLine.timeValues(allowingDates: false, strictParameters: false) else {
                throw RecurrenceError.malformed("RDATE", "RDATE of an observance lists local dates and times.").at(line: dateLine.lineNumber)
            }
            for case .dateTime(let time) in values { instants.append(time.localSeconds - (time.form == .utc ? 0 : before)) }
            kept.append(dateLine)
        }
        return (Array(Set(instants)).map { ($0, before, after) }, kept)
    }

    /// `value` with a year before 1900 read as 1900: Outlook starts every observance in 1601, and
    /// a yearly rule gives the same transitions from 1900 on.
    private static func fromYear1900(_ value: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard value.count >= 4, value.prefix(4).allSatisfy(\.isASCIIDigit), Array(value.prefix(4)).lexicographicallyPrecedes(Array("1900".utf8))
        else { return value }
        return ArraySlice(Array("1900".utf8) + value.dropFirst(4))
    }

    /// A UTC offset `+HHMM` or `-HHMMSS`, in seconds.
    private static func offset(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 5 || bytes.count == 7, let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            bytes.dropFirst().allSatisfy(\.isASCIIDigit)
        else { return nil }
        let digits = bytes.dropFirst().map { Int($0 - UInt8(ascii: "0")) }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        let seconds = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }

    private static func malformedOffset(_ line: ContentLine) -> RecurrenceError {
        RecurrenceError.malformed(line.name, "\(line.name) is a UTC offset such as +0100 or -0430.").at(line: line.lineNumber)
    }
}

extension TimeZoneRules {
    /// A zone always `offset` seconds east of UTC.
    static func fixed(offset: Int) -> TimeZoneRules {
        TimeZoneRules(storage: Storage(
            identifier: "UTC\(offset < 0 ? "-" : "+")\(abs(offset))s", transitions: [], offsets: [], localLimits: [], offsetBefore: offset,
            tail: .fixed(offset)))
    }
}
