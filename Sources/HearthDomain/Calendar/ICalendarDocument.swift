import FoundationEssentials

/// One VEVENT of an exported calendar (RFC 5545 §3.6.1).
public struct ICalendarEvent: Sendable {
    /// When something starts or ends.
    public enum Time: Sendable {
        /// A local time on a zone's wall clock (`DTSTART;TZID=…`); UTC's is written with `Z`.
        case local(Date, TimeZoneRules)
        /// A whole day (`VALUE=DATE`).
        case day(CalendarDay)
    }

    /// Stable across exports: the object's id and the server's name.
    public var uid: String
    /// RFC 5545 SEQUENCE: goes up with each edit.
    public var sequence: Int
    /// When the object last changed (DTSTAMP and LAST-MODIFIED), so an unchanged feed is
    /// byte-for-byte the same.
    public var lastModified: Date
    /// The title.
    public var summary: String
    /// The first start.
    public var start: Time
    /// The first end; `nil` for an event of no length (a chore's due time).
    public var end: Time?
    /// The repetition from `start`, written as RRULE and EXDATE lines.
    public var recurrence: RecurrenceRule?
    /// Whether it leaves the time free (TRANSP:TRANSPARENT) rather than busy.
    public var isTransparent: Bool
    /// A category naming what it is (`Chore`, `Availability`).
    public var category: String

    /// Creates an event.
    public init(
        uid: String, sequence: Int, lastModified: Date, summary: String, start: Time, end: Time?, recurrence: RecurrenceRule?,
        isTransparent: Bool, category: String
    ) {
        self.uid = uid
        self.sequence = sequence
        self.lastModified = lastModified
        self.summary = summary
        self.start = start
        self.end = end
        self.recurrence = recurrence
        self.isTransparent = isTransparent
        self.category = category
    }
}

/// An exported calendar file (RFC 5545): a VCALENDAR with a VTIMEZONE for each zone its events
/// name (covering their starts and three years after the last) and one VEVENT per event, CRLF
/// lines folded at 75 octets, TEXT escaped.
public enum ICalendarDocument {
    /// The media type of the file.
    public static let mediaType = "text/calendar; charset=utf-8"

    /// The file of `events`, titled `name`.
    public static func text(name: String, events: [ICalendarEvent]) -> String {
        var text = ICalendarText()
        text.begin("VCALENDAR")
        text.line("VERSION", "2.0")
        text.line("PRODID", "-//Hearth//Calendar export//EN")
        text.line("CALSCALE", "GREGORIAN")
        text.line("X-WR-CALNAME", ICalendarText.escaped(name))
        for (zone, starts) in zones(of: events) {
            VTimeZone.write(zone, from: starts.first!.addingTimeInterval(-86_400), through: starts.last!.addingTimeInterval(3 * 366 * 86_400), into: &text)
        }
        for event in events { write(event, into: &text) }
        text.end("VCALENDAR")
        return text.text
    }

    /// The zones the events' local times name (UTC aside), with their sorted start instants.
    private static func zones(of events: [ICalendarEvent]) -> [(TimeZoneRules, [Date])] {
        var starts: [String: (TimeZoneRules, [Date])] = [:]
        for event in events {
            guard case .local(let date, let zone) = event.start, zone != .utc else { continue }
            starts[zone.identifier, default: (zone, [])].1.append(date)
        }
        return starts.keys.sorted().map { (starts[$0]!.0, starts[$0]!.1.sorted()) }
    }

    static func write(_ event: ICalendarEvent, into text: inout ICalendarText) {
        text.begin("VEVENT")
        text.line("UID", ICalendarText.escaped(event.uid))
        text.line("DTSTAMP", ICalendarStamp.utc(event.lastModified))
        text.line("LAST-MODIFIED", ICalendarStamp.utc(event.lastModified))
        text.line("SEQUENCE", String(event.sequence))
        text.line("SUMMARY", ICalendarText.escaped(event.summary))
        time("DTSTART", event.start, into: &text)
        if let end = event.end { time("DTEND", end, into: &text) }
        if let rule = event.recurrence {
            for line in rule.text.split(separator: "\n") where line.hasPrefix("RRULE:") {
                text.line("RRULE", ruleValue(String(line.dropFirst("RRULE:".count)), rule, start: event.start))
            }
            for exception in rule.exceptions {
                let date = Date(timeIntervalSince1970: Double(exception))
                switch event.start {
                case .day: time("EXDATE", .day(CalendarDay(containing: date, in: rule.timeZone)), into: &text)
                case .local(_, let zone): time("EXDATE", .local(date, zone), into: &text)
                }
            }
        }
        text.line("TRANSP", event.isTransparent ? "TRANSPARENT" : "OPAQUE")
        text.line("CATEGORIES", ICalendarText.escaped(event.category))
        text.end("VEVENT")
    }

    /// The RRULE value `value` with its UNTIL in the form RFC 5545 §3.3.10 requires beside the
    /// event's DTSTART: a UTC date-time after a local one, a date after a date (recurrence text
    /// may write it either way; the instant is the same).
    private static func ruleValue(_ value: String, _ rule: RecurrenceRule, start: ICalendarEvent.Time) -> String {
        guard let until = rule.untilInstant else { return value }
        let date = Date(timeIntervalSince1970: Double(until))
        let written =
            switch start {
            case .day: ICalendarStamp.date(CalendarDay(containing: date, in: rule.timeZone))
            case .local: ICalendarStamp.utc(date)
            }
        return value.split(separator: ";").map { $0.hasPrefix("UNTIL=") ? "UNTIL=" + written : String($0) }.joined(separator: ";")
    }

    /// The property `name` with the value `time`.
    private static func time(_ name: String, _ time: ICalendarEvent.Time, into text: inout ICalendarText) {
        switch time {
        case .local(let date, let zone) where zone == .utc: text.line(name, ICalendarStamp.utc(date))
        case .local(let date, let zone): text.line(name, ICalendarStamp.local(date, in: zone), parameters: ["TZID=\(zone.identifier)"])
        case .day(let day): text.line(name, ICalendarStamp.date(day), parameters: ["VALUE=DATE"])
        }
    }
}
