/// An iCalendar file (RFC 5545) read for import: its events and the zones they name.
///
/// **What is read.** One or more `VCALENDAR` objects; their `VEVENT`s (``CalendarEvent`` says
/// which properties) and `VTIMEZONE`s; other components (`VTODO`, `VJOURNAL`, `VFREEBUSY`,
/// `VALARM` inside events, `X-` components) are passed over, as are properties this does not
/// use. Lines end in CRLF or LF and may be folded; text is UTF-8. A `TZID` names a zone of the
/// IANA database or, failing that, a `VTIMEZONE` of the file (``CalendarTimeZone``); a
/// floating time (no TZID, no `Z`) is local time in the zone of whoever reads it.
///
/// **What is refused,** with a ``RecurrenceError`` whose ``RecurrenceError/line`` names the
/// line at fault (counting from 1, before unfolding): text that is not content lines, `BEGIN`
/// and `END` that do not pair, an event without UID or DTSTART, a value out of range, a TZID
/// neither the database nor the file defines, the same UID and RECURRENCE-ID twice, and a file
/// past ``CalendarFileLimits``.
///
/// **What is skipped,** and reported in ``skippedEvents`` while the rest is read: an event the
/// recurrence engine cannot expand (``RecurrenceRule``: an RRULE with FREQ=HOURLY, MINUTELY or
/// SECONDLY, BYHOUR, BYMINUTE, BYSECOND, BYYEARDAY or BYWEEKNO; EXRULE; RDATE periods). Nothing in a file can make the
/// parser trap or run long: `tools/fuzz/ics-parser` checks it.
public struct CalendarFile: Sendable {
    /// The events, in file order.
    public let events: [CalendarEvent]
    /// The events left out because they use what the recurrence engine does not support, in file order.
    public let skippedEvents: [SkippedCalendarEvent]
    /// The file's VTIMEZONE components in iCalendar form, stored beside its events so they read
    /// the same later.
    public var timeZoneText: String { definedZones.map(\.text).joined(separator: "\n") }

    let definedZones: [CalendarTimeZone]
    /// Every TZID the events name, resolved.
    let zones: [String: TimeZoneRules]

    /// The most STANDARD and DAYLIGHT observances a file may define, over all its VTIMEZONEs
    /// (each is expanded through 2100): real files have two per zone.
    static let maximumObservances = 200

    /// Parses an uploaded file.
    ///
    /// - Parameter timeZones: the rules of an IANA zone by name, nil for a name it does not know.
    /// - Throws: ``RecurrenceError`` (`LIMIT_EXCEEDED` past `limits`), with the line at fault.
    public static func parse(
        _ bytes: [UInt8], limits: CalendarFileLimits, timeZones: (String) -> TimeZoneRules?
    ) throws(RecurrenceError) -> CalendarFile {
        guard bytes.count <= limits.maximumBytes else {
            throw RecurrenceError(code: .limitExceeded, part: nil, message: "A calendar file has at most \(limits.maximumBytes) bytes.")
        }
        var reader = ComponentReader(limits: limits)
        for line in try ContentLine.lines(of: bytes, allowingUTF8: true) { try reader.read(line) }
        try reader.finish()
        var zones: [String: TimeZoneRules] = [:]
        let defined = Dictionary(reader.zones.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        for event in reader.events {
            for reference in event.zoneReferences where zones[reference.name] == nil {
                guard let rules = timeZones(reference.name) ?? defined[reference.name]?.rules else {
                    let shown = String(reference.name.prefix(RecurrenceError.maximumPartLength))
                    throw RecurrenceError(
                        code: .unknownTimeZone, part: "TZID",
                        message: "\(shown) is neither a time zone of the IANA database nor a VTIMEZONE of the file."
                    ).at(line: reference.line)
                }
                zones[reference.name] = rules
            }
        }
        return CalendarFile(events: reader.events, skippedEvents: reader.skipped, definedZones: reader.zones, zones: zones)
    }

    /// Parses what was stored of an imported calendar: its ``timeZoneText`` and its events'
    /// ``CalendarEvent/text``, without the limits on files (they held when it was imported).
    public static func parse(stored timeZoneText: String, events: [String], timeZones: (String) -> TimeZoneRules?) throws(RecurrenceError) -> CalendarFile {
        let text = ICalendarComponent.lines("VCALENDAR", around: [timeZoneText] + events).joined(separator: "\n")
        return try parse(Array(text.utf8), limits: CalendarFileLimits(maximumBytes: .max, maximumEvents: .max), timeZones: timeZones)
    }
}

/// Pairs BEGIN and END lines and hands each component's lines to its reader.
private struct ComponentReader {
    let limits: CalendarFileLimits
    var events: [CalendarEvent] = []
    var skipped: [SkippedCalendarEvent] = []
    var zones: [CalendarTimeZone] = []
    /// The components open, outermost first, with the line each began on.
    private var open: [(name: String, line: Int)] = []
    private var properties: [ContentLine] = []
    private var observances: [CalendarTimeZone.Observance] = []
    private var observanceLines: [ContentLine] = []
    private var keys: [String: Int] = [:]
    private var sawCalendar = false

    init(limits: CalendarFileLimits) {
        self.limits = limits
    }

    /// Components nest no deeper in any file a calendar app writes.
    private static let maximumDepth = 8

    mutating func read(_ line: ContentLine) throws(RecurrenceError) {
        switch line.name {
        case ICalendarComponent.begin: try begin(String(asciiUppercasing: line.value), line: line)
        case ICalendarComponent.end: try end(String(asciiUppercasing: line.value), line: line)
        default:
            guard let current = open.last else {
                throw RecurrenceError.malformed(line.name, "A calendar file starts with BEGIN:VCALENDAR.").at(line: line.lineNumber)
            }
            switch (open.count, current.name) {
            case (2, "VEVENT"), (2, "VTIMEZONE"): properties.append(line)
            case (3, "STANDARD"), (3, "DAYLIGHT"): if open[1].name == "VTIMEZONE" { observanceLines.append(line) }
            default: break
            }
        }
    }

    private mutating func begin(_ name: String, line: ContentLine) throws(RecurrenceError) {
        guard !name.isEmpty else { throw RecurrenceError.malformed(ICalendarComponent.begin, "A BEGIN names a component.").at(line: line.lineNumber) }
        if open.isEmpty {
            guard name == "VCALENDAR" else {
                throw RecurrenceError.malformed(ICalendarComponent.begin, "A calendar file starts with BEGIN:VCALENDAR.").at(line: line.lineNumber)
            }
            sawCalendar = true
        } else if name == "VCALENDAR" {
            throw RecurrenceError.malformed(ICalendarComponent.begin, "A BEGIN:VCALENDAR inside \(open.last!.name).").at(line: line.lineNumber)
        }
        guard open.count < Self.maximumDepth else {
            throw RecurrenceError.malformed(ICalendarComponent.begin, "Components nest at most \(Self.maximumDepth) deep.").at(line: line.lineNumber)
        }
        if open.count == 1 && name == "VEVENT" {
            guard events.count + skipped.count < limits.maximumEvents else {
                throw RecurrenceError(code: .limitExceeded, part: "VEVENT", message: "A calendar file has at most \(limits.maximumEvents) events.")
                    .at(line: line.lineNumber)
            }
        }
        if open.count == 2 && open[1].name == "VTIMEZONE" && (name == "STANDARD" || name == "DAYLIGHT") {
            guard zones.reduce(observances.count, { $0 + $1.observanceCount }) < CalendarFile.maximumObservances else {
                throw RecurrenceError(
                    code: .limitExceeded, part: name, message: "A calendar file defines at most \(CalendarFile.maximumObservances) time zone observances."
                ).at(line: line.lineNumber)
            }
        }
        open.append((name, line.lineNumber))
    }

    private mutating func end(_ name: String, line: ContentLine) throws(RecurrenceError) {
        guard let current = open.last else {
            throw RecurrenceError.malformed(ICalendarComponent.end, "An END:\(name.prefix(40)) without its BEGIN.").at(line: line.lineNumber)
        }
        guard current.name == name else {
            throw RecurrenceError.malformed(
                ICalendarComponent.end, "An END:\(name.prefix(40)) where BEGIN:\(current.name.prefix(40)) of line \(current.line) is still open."
            ).at(line: line.lineNumber)
        }
        open.removeLast()
        switch (open.count, name) {
        case (1, "VEVENT"):
            let event: CalendarEvent
            do {
                event = try CalendarEvent(lines: properties, beginLine: current.line)
            } catch where error.code == .unsupported {
                let uid = properties.first { $0.name == "UID" }.map { ICalendarText.unescaped($0.value, maximumLength: 255) } ?? ""
                skipped.append(SkippedCalendarEvent(uid: uid, line: error.line ?? current.line, reason: error.description))
                break
            }
            let key = event.uid + "\n" + event.recurrenceKey
            if let first = keys[key] {
                throw RecurrenceError.malformed("UID", "This event repeats the UID (and RECURRENCE-ID) of the event on line \(first).")
                    .at(line: current.line)
            }
            keys[key] = current.line
            events.append(event)
        case (1, "VTIMEZONE"):
            zones.append(try CalendarTimeZone(properties: properties, observances: observances, beginLine: current.line))
        case (2, "STANDARD"), (2, "DAYLIGHT"):
            if open[1].name == "VTIMEZONE" { observances.append(.init(name: name, lines: observanceLines, beginLine: current.line)) }
        default: break
        }
        if open.count <= 2 { observanceLines = [] }
        if open.count <= 1 {
            properties = []
            observances = []
        }
    }

    func finish() throws(RecurrenceError) {
        if let last = open.last {
            throw RecurrenceError.malformed(ICalendarComponent.end, "The BEGIN:\(last.name.prefix(40)) of line \(last.line) is never ended.").at(line: last.line)
        }
        guard sawCalendar else { throw RecurrenceError.malformed(nil, "The file holds no BEGIN:VCALENDAR.").at(line: 1) }
    }
}
