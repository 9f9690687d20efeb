import Support

extension RecurrenceRule {
    /// Parses recurrence text (see ``RecurrenceRule`` for what is accepted), resolving TZID
    /// names with `timeZones`.
    ///
    /// - Parameters:
    ///   - defaultTimeZone: the zone of a DTSTART without TZID or `Z` (the household's).
    ///   - timeZones: the rules of a zone by name, nil for a name it does not know.
    /// - Throws: ``RecurrenceError`` naming the part or property at fault.
    public static func parse(
        _ text: String, defaultTimeZone: TimeZoneRules, limits: RecurrenceLimits = RecurrenceLimits(),
        timeZones: (String) -> TimeZoneRules?
    ) throws(RecurrenceError) -> RecurrenceRule {
        guard text.utf8.count <= limits.maximumTextLength else {
            throw RecurrenceError(
                code: .limitExceeded, part: nil, message: "A recurrence is at most \(limits.maximumTextLength) bytes long.")
        }
        var startLine: ContentLine?
        var ruleLine: ContentLine?
        var exceptionLines: [ContentLine] = []
        for line in try ContentLine.lines(of: text) {
            switch line.name {
            case "DTSTART":
                guard startLine == nil else { throw .malformed("DTSTART", "DTSTART appears more than once.") }
                startLine = line
            case "RRULE":
                guard ruleLine == nil else {
                    throw .unsupported("RRULE", "A recurrence has one RRULE; make a second chore for a second rule.")
                }
                ruleLine = line
            case "EXDATE":
                exceptionLines.append(line)
            case "RDATE", "EXRULE":
                throw .unsupported(line.name, "\(line.name) is not supported: a recurrence is one RRULE with EXDATE exceptions.")
            default:
                throw .unsupported(line.name, "\(line.name) is not part of a recurrence: give DTSTART, RRULE and EXDATE lines.")
            }
        }
        guard let startLine else {
            throw .malformed("DTSTART", "DTSTART is required, such as DTSTART;TZID=Europe/Berlin:20260329T093000.")
        }
        guard let ruleLine else { throw .malformed("RRULE", "RRULE is required, such as RRULE:FREQ=WEEKLY;BYDAY=MO.") }
        guard ruleLine.parameters.isEmpty else { throw .malformed("RRULE", "RRULE takes no parameters.") }

        let starts = try times(of: startLine)
        guard starts.count == 1, let start = starts.first else { throw .malformed("DTSTART", "DTSTART has one value.") }
        let zone = try resolve(start.form, ruleZone: defaultTimeZone, timeZones: timeZones)
        let pattern = try RecurrencePattern(ruleLine.value)

        var hint = -1
        let untilInstant: Int? =
            switch pattern.until {
            case .dateTime(let time) where time.form == .utc: time.localSeconds
            case .dateTime(let time): zone.instant(forLocal: time.localSeconds, hint: &hint)
            case .date(let day): zone.instant(forLocal: (day + 1) * CivilCalendar.secondsPerDay - 1, hint: &hint)
            case nil: nil
            }

        var exceptionTimes: [ICalendarTime] = []
        var exceptions: [Int] = []
        var exceptionCount = 0
        for line in exceptionLines {
            let times = try times(of: line)
            exceptionCount += times.count
            guard exceptionCount <= limits.maximumExceptionDates else {
                throw RecurrenceError(
                    code: .limitExceeded, part: "EXDATE", message: "A recurrence has at most \(limits.maximumExceptionDates) EXDATE values.")
            }
            for time in times {
                let timeZone = try resolve(time.form, ruleZone: zone, timeZones: timeZones)
                exceptionTimes.append(time)
                exceptions.append(timeZone.instant(forLocal: time.localSeconds, hint: &hint))
            }
        }
        return RecurrenceRule(
            timeZone: zone, pattern: pattern, start: start, untilInstant: untilInstant, exceptionTimes: Array(Set(exceptionTimes)).sorted(),
            exceptions: exceptions.sorted())
    }

    /// The zone a value's form names; a floating value takes `ruleZone`.
    private static func resolve(
        _ form: ICalendarTime.Form, ruleZone: TimeZoneRules, timeZones: (String) -> TimeZoneRules?
    ) throws(RecurrenceError) -> TimeZoneRules {
        switch form {
        case .utc: return .utc
        case .floating: return ruleZone
        case .zone(let name):
            guard let zone = timeZones(name) else {
                // Named so the client sees which value is wrong; cut, so an error never echoes a long input.
                let shown = name.count > RecurrenceError.maximumPartLength ? String(name.prefix(RecurrenceError.maximumPartLength)) + "…" : name
                throw RecurrenceError(
                    code: .unknownTimeZone, part: "TZID",
                    message: "\(shown) is not a time zone of the IANA database; name one such as Europe/Berlin.")
            }
            return zone
        }
    }

    /// The DATE-TIME values of a DTSTART or EXDATE line, with its TZID.
    private static func times(of line: ContentLine) throws(RecurrenceError) -> [ICalendarTime] {
        let property = line.name
        var zone: String?
        var sawValueType = false
        for (name, value) in line.parameters {
            switch name {
            case "TZID" where zone == nil:
                zone = value
            case "VALUE" where !sawValueType:
                sawValueType = true
                guard value.uppercased() == "DATE-TIME" else {
                    throw .unsupported(property, "\(property) is a date and a time of day (VALUE=DATE-TIME), such as 20260329T093000.")
                }
            case "TZID", "VALUE":
                throw .malformed(property, "\(property) has \(name) more than once.")
            default:
                throw .malformed(property, "\(property) takes only the TZID and VALUE parameters.")
            }
        }
        let form: ICalendarTime.Form = zone.map { .zone($0) } ?? .floating
        var times: [ICalendarTime] = []
        for item in line.value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let time = ICalendarTime(item, form: form) else {
                throw .malformed(property, "\(property) is a date and time such as 20260329T093000, in the years 1900 to 9999.")
            }
            guard zone == nil || time.form != .utc else {
                throw .malformed(property, "\(property) names its time zone twice, with TZID and with a trailing Z.")
            }
            times.append(time)
        }
        return times
    }
}
