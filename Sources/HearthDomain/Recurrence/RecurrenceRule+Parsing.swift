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
        let untilInstant = untilInstant(of: pattern, in: zone)

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
    static func resolve(
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

    /// The last instant UNTIL admits: UTC as written with `Z`, else local time in `zone`; a
    /// DATE means through the end of that day.
    static func untilInstant(of pattern: RecurrencePattern, in zone: TimeZoneRules) -> Int? {
        var hint = -1
        return switch pattern.until {
        case .dateTime(let time) where time.form == .utc: time.localSeconds
        case .dateTime(let time): zone.instant(forLocal: time.localSeconds, hint: &hint)
        case .date(let day): zone.instant(forLocal: (day + 1) * CivilCalendar.secondsPerDay - 1, hint: &hint)
        case nil: nil
        }
    }

    /// The DATE-TIME values of a DTSTART or EXDATE line, with its TZID; no other parameters.
    private static func times(of line: ContentLine) throws(RecurrenceError) -> [ICalendarTime] {
        try line.timeValues(allowingDates: false, strictParameters: true).map { value in
            guard case .dateTime(let time) = value else { preconditionFailure("dates were refused") }
            return time
        }
    }
}
