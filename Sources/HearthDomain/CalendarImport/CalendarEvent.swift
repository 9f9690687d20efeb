/// One VEVENT of an imported calendar file (RFC 5545 §3.6.1), as the parser read it: what the
/// calendar view shows, and what expanding it into occurrences needs.
///
/// Whole-day events (`DTSTART;VALUE=DATE`) last one day unless DTEND or DURATION says more;
/// a timed event without either is an instant. An event with RECURRENCE-ID replaces the
/// occurrence of the event with the same UID that starts at that time; with `RANGE=THISANDFUTURE`
/// it also governs every later occurrence of the series (RFC 5545 §3.8.4.4: moved by the same
/// time difference, lasting as long, with its title). `STATUS:CANCELLED` removes the event (all of a series, or
/// the one occurrence an override names); `TRANSP:TRANSPARENT` marks it as not busy.
public struct CalendarEvent: Sendable, Hashable {
    /// The event's UID, which a re-import matches on.
    public let uid: String
    /// The title (SUMMARY), unescaped; empty when the file gives none.
    public let summary: String
    /// The LOCATION, unescaped, when given.
    public let location: String?
    /// Whether it spans whole days (VALUE=DATE).
    public let isAllDay: Bool
    /// Whether STATUS is CANCELLED.
    public let isCancelled: Bool
    /// Whether it occupies time: TRANSP is not TRANSPARENT.
    public let isBusy: Bool
    /// The RECURRENCE-ID as written (`20260302T090000`, with `;TZID=…` kept), or empty for an
    /// event that overrides no occurrence: with ``uid``, what identifies the event in its calendar.
    public let recurrenceKey: String
    /// The event's own properties in iCalendar form (`BEGIN:VEVENT` … `END:VEVENT`), what the
    /// service stores and parses again with ``CalendarFile/parse(stored:timeZones:)``.
    public let text: String
    /// The line of `BEGIN:VEVENT`.
    public let lineNumber: Int

    let start: ICalendarTimeValue
    let end: End
    let pattern: RecurrencePattern?
    let exceptions: [ICalendarTimeValue]
    let extraStarts: [ICalendarTimeValue]
    let recurrenceID: ICalendarTimeValue?
    /// Whether the RECURRENCE-ID carries `RANGE=THISANDFUTURE`.
    let isThisAndFuture: Bool
    /// Every TZID the event names, with the line naming it.
    let zoneReferences: [ZoneReference]

    /// How long each occurrence lasts.
    enum End: Hashable, Sendable {
        /// DTEND as written (an occurrence of a series lasts as long as the first).
        case time(ICalendarTimeValue)
        /// DURATION, or the default, in seconds of the wall clock.
        case duration(Int)
    }

    /// A TZID and the line that names it.
    struct ZoneReference: Hashable, Sendable {
        let name: String
        let line: Int
    }

    /// Whether an RRULE or RDATE makes it a series.
    public var isRecurring: Bool { pattern != nil || !extraStarts.isEmpty }

    /// The longest SUMMARY and LOCATION kept, in characters.
    static let maximumTextLength = 500

    /// Reads the properties of a VEVENT (`lines`, without its BEGIN and END or nested
    /// components) that began on `beginLine`.
    /// - Throws: ``RecurrenceError`` at the line at fault.
    init(lines: [ContentLine], beginLine: Int) throws(RecurrenceError) {
        var seen: [String: ContentLine] = [:]
        var exceptions: [ICalendarTimeValue] = []
        var extraStarts: [ICalendarTimeValue] = []
        var kept: [ContentLine] = []
        var zoneReferences: [ZoneReference] = []
        for line in lines {
            switch line.name {
            case "UID", "DTSTART", "DTEND", "DURATION", "RRULE", "RECURRENCE-ID", "SUMMARY", "LOCATION", "STATUS", "TRANSP":
                if let first = seen[line.name] {
                    throw RecurrenceError.malformed(line.name, "\(line.name) appears twice in one event (first on line \(first.lineNumber)).")
                        .at(line: line.lineNumber)
                }
                seen[line.name] = line
            case "EXDATE":
                exceptions += try Self.values(of: line)
            case "RDATE":
                extraStarts += try Self.values(of: line)
            case "EXRULE":
                throw RecurrenceError.unsupported("EXRULE", "EXRULE is not supported (RFC 5545 deprecates it); use EXDATE.").at(line: line.lineNumber)
            default:
                continue
            }
            kept.append(line)
            if let zone = line.parameters.first(where: { $0.name == "TZID" })?.value {
                zoneReferences.append(ZoneReference(name: zone, line: line.lineNumber))
            }
        }
        guard let uidLine = seen["UID"], !uidLine.value.isEmpty else {
            throw RecurrenceError.malformed("UID", "An event needs a UID, which a new import of the file matches it by.").at(line: beginLine)
        }
        guard let startLine = seen["DTSTART"] else {
            throw RecurrenceError.malformed("DTSTART", "An event needs a DTSTART.").at(line: beginLine)
        }
        let startValues = try Self.values(of: startLine)
        guard startValues.count == 1, let start = startValues.first else {
            throw RecurrenceError.malformed("DTSTART", "DTSTART has one value.").at(line: startLine.lineNumber)
        }
        let isAllDay = if case .date = start { true } else { false }
        self.start = start
        self.isAllDay = isAllDay
        end = try Self.end(start: start, endLine: seen["DTEND"], durationLine: seen["DURATION"])
        if let ruleLine = seen["RRULE"] {
            do {
                pattern = try RecurrencePattern(ruleLine.value)
            } catch {
                throw error.at(line: ruleLine.lineNumber)
            }
        } else {
            pattern = nil
        }
        for line in lines where line.name == "EXDATE" || line.name == "RDATE" {
            guard try Self.values(of: line).allSatisfy({ Self.isDate($0) == isAllDay }) else {
                throw RecurrenceError.malformed(line.name, "\(line.name) values are dates when DTSTART is, and dates and times when DTSTART is.")
                    .at(line: line.lineNumber)
            }
        }
        self.exceptions = exceptions
        self.extraStarts = extraStarts
        if let idLine = seen["RECURRENCE-ID"] {
            let values = try Self.values(of: idLine)
            guard values.count == 1 else { throw RecurrenceError.malformed("RECURRENCE-ID", "RECURRENCE-ID has one value.").at(line: idLine.lineNumber) }
            recurrenceID = values[0]
            recurrenceKey = idLine.text
            isThisAndFuture = idLine.parameters.contains { $0.name == "RANGE" && String(asciiUppercasing: $0.value.utf8) == "THISANDFUTURE" }
        } else {
            recurrenceID = nil
            recurrenceKey = ""
            isThisAndFuture = false
        }
        uid = ICalendarText.unescaped(uidLine.value, maximumLength: 255)
        summary = seen["SUMMARY"].map { ICalendarText.unescaped($0.value, maximumLength: Self.maximumTextLength) } ?? ""
        location = seen["LOCATION"].map { ICalendarText.unescaped($0.value, maximumLength: Self.maximumTextLength) }
        isCancelled = seen["STATUS"].map { String(asciiUppercasing: $0.value) == "CANCELLED" } ?? false
        isBusy = seen["TRANSP"].map { String(asciiUppercasing: $0.value) != "TRANSPARENT" } ?? true
        self.zoneReferences = zoneReferences
        lineNumber = beginLine
        text = ICalendarComponent.lines("VEVENT", around: kept.map(\.text)).joined(separator: "\n")
    }

    /// The date or date-time values of `line`.
    private static func values(of line: ContentLine) throws(RecurrenceError) -> [ICalendarTimeValue] {
        do {
            return try line.timeValues(allowingDates: true, strictParameters: false)
        } catch {
            throw error.at(line: line.lineNumber)
        }
    }

    private static func isDate(_ value: ICalendarTimeValue) -> Bool {
        if case .date = value { true } else { false }
    }

    /// DTEND or DURATION (not both), of the same kind as DTSTART and not before it; a whole
    /// day, or nothing, when neither is given.
    private static func end(start: ICalendarTimeValue, endLine: ContentLine?, durationLine: ContentLine?) throws(RecurrenceError) -> End {
        switch (endLine, durationLine) {
        case (let endLine?, _?):
            throw RecurrenceError.malformed("DTEND", "An event has DTEND or DURATION, not both.").at(line: endLine.lineNumber)
        case (let endLine?, nil):
            let values = try values(of: endLine)
            guard values.count == 1, let end = values.first else {
                throw RecurrenceError.malformed("DTEND", "DTEND has one value.").at(line: endLine.lineNumber)
            }
            switch (start, end) {
            case (.date(let first), .date(let last)) where last >= first: return .time(end)
            case (.dateTime(let first), .dateTime(let last)) where first.form != last.form || last.localSeconds >= first.localSeconds:
                return .time(end)
            case (.date, .date), (.dateTime, .dateTime):
                throw RecurrenceError.malformed("DTEND", "DTEND is before DTSTART.").at(line: endLine.lineNumber)
            default:
                throw RecurrenceError.malformed("DTEND", "DTEND is a date when DTSTART is, and a date and time when DTSTART is.")
                    .at(line: endLine.lineNumber)
            }
        case (nil, let durationLine?):
            guard let seconds = ICalendarDuration.seconds(durationLine.value), seconds >= 0 else {
                throw RecurrenceError.malformed("DURATION", "DURATION is a positive length such as PT1H30M or P1D, at most ten years.")
                    .at(line: durationLine.lineNumber)
            }
            return .duration(seconds)
        case (nil, nil):
            return .duration(isDate(start) ? 86_400 : 0)
        }
    }
}
