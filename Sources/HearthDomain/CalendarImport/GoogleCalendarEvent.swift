import FoundationEssentials
import Support

/// One event of Google Calendar's API (an `Events` resource of `events.list`), read for import and
/// written as the VEVENT an .ics file would carry, so that Google's events are stored, expanded and
/// counted as busy time exactly as imported ones are (``CalendarFile``).
///
/// The conversion, after Google's documented fields:
/// - `start`/`end`: `date` is a whole day (`VALUE=DATE`); `dateTime` with a `timeZone` of the IANA
///   database is written as that zone's wall-clock time with `TZID` (so a weekly series keeps its
///   hour across DST), without one (or with a zone the database lacks) as UTC;
/// - `recurrence`: its `RRULE`, `EXRULE`, `RDATE` and `EXDATE` lines as given (any other line is
///   dropped, so an event cannot smuggle components in);
/// - an instance of a series (`recurringEventId` with `originalStartTime`) becomes an override of
///   the series' occurrence: UID the series' id, `RECURRENCE-ID` the original start (in UTC, or
///   the day);
/// - `status: cancelled` writes `STATUS:CANCELLED` (an override that removes its occurrence; the
///   service deletes a cancelled event that is no override); `transparency: transparent` writes
///   `TRANSP:TRANSPARENT` (not busy).
public struct GoogleCalendarEvent: Decodable, Sendable, Equatable {
    /// The event's id at Google (for an instance of a series, `<series id>_<original start>`).
    public var id: String
    /// `confirmed`, `tentative` or `cancelled`.
    public var status: String?
    /// The title.
    public var summary: String?
    /// Where.
    public var location: String?
    /// When it starts.
    public var start: Time?
    /// When it ends (exclusive).
    public var end: Time?
    /// The RRULE, EXRULE, RDATE and EXDATE lines of a series.
    public var recurrence: [String]?
    /// For an instance of a series: the series' id.
    public var recurringEventId: String?
    /// For an instance of a series: when the occurrence it replaces starts.
    public var originalStartTime: Time?
    /// `opaque` (busy, the default) or `transparent`.
    public var transparency: String?

    /// A time of Google's API: a whole day (`date`, `YYYY-MM-DD`) or an instant (`dateTime`, RFC
    /// 3339) with the IANA zone it is meant in (`timeZone`).
    public struct Time: Codable, Sendable, Equatable {
        /// The day of an all-day event.
        public var date: String?
        /// The instant of a timed event.
        public var dateTime: String?
        /// The zone the time is meant in.
        public var timeZone: String?

        /// A time from its parts.
        public init(date: String? = nil, dateTime: String? = nil, timeZone: String? = nil) {
            self.date = date
            self.dateTime = dateTime
            self.timeZone = timeZone
        }
    }

    /// An event from its parts (tests).
    public init(
        id: String, status: String? = nil, summary: String? = nil, location: String? = nil, start: Time? = nil, end: Time? = nil,
        recurrence: [String]? = nil, recurringEventId: String? = nil, originalStartTime: Time? = nil, transparency: String? = nil
    ) {
        self.id = id
        self.status = status
        self.summary = summary
        self.location = location
        self.start = start
        self.end = end
        self.recurrence = recurrence
        self.recurringEventId = recurringEventId
        self.originalStartTime = originalStartTime
        self.transparency = transparency
    }

    /// Whether Google reports it deleted (or, for an instance, its occurrence cancelled).
    public var isCancelled: Bool { status == "cancelled" }
    /// Whether it replaces one occurrence of a series.
    public var isOverride: Bool { recurringEventId != nil && originalStartTime != nil }
    /// The UID it is stored under: the series' id for an override, its own otherwise.
    public var uid: String { isOverride ? recurringEventId! : id }

    /// The lines of `recurrence` that are kept.
    static let recurrenceProperties: Set<String> = ["RRULE", "EXRULE", "RDATE", "EXDATE"]

    /// The event as VEVENT text (`BEGIN:VEVENT` … `END:VEVENT`).
    /// - Parameter timeZones: the rules of an IANA zone by name, nil for one it does not know.
    /// - Throws: ``RecurrenceError`` `MALFORMED` on `DTSTART` for an event without a usable start.
    public func vevent(timeZones: (String) -> TimeZoneRules?) throws(RecurrenceError) -> String {
        var text = ICalendarText()
        text.begin("VEVENT")
        text.line("UID", ICalendarText.escaped(uid))
        if let original = originalStartTime, isOverride {
            guard let written = Self.property(original, inUTC: true, timeZones: timeZones) else {
                throw RecurrenceError.malformed("RECURRENCE-ID", "The event's originalStartTime is neither a date nor an RFC 3339 date-time.")
            }
            text.line("RECURRENCE-ID", written.value, parameters: written.parameters)
            if isCancelled {
                // A cancelled instance carries no times of its own: it removes the occurrence it names.
                text.line("DTSTART", written.value, parameters: written.parameters)
                text.line("STATUS", "CANCELLED")
                text.end("VEVENT")
                return text.text
            }
        }
        guard let start, let written = Self.property(start, inUTC: false, timeZones: timeZones) else {
            throw RecurrenceError.malformed("DTSTART", "The event has no start Hearth can read (neither a date nor an RFC 3339 date-time).")
        }
        text.line("DTSTART", written.value, parameters: written.parameters)
        if let end, let writtenEnd = Self.property(end, inUTC: false, timeZones: timeZones) {
            text.line("DTEND", writtenEnd.value, parameters: writtenEnd.parameters)
        }
        if let summary, !summary.isEmpty { text.line("SUMMARY", ICalendarText.escaped(summary)) }
        if let location, !location.isEmpty { text.line("LOCATION", ICalendarText.escaped(location)) }
        if transparency == "transparent" { text.line("TRANSP", "TRANSPARENT") }
        for line in recurrence ?? [] where !line.contains(where: { $0 == "\r" || $0 == "\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let head = String(line[..<colon])
            let name = head.prefix { $0 != ";" }.uppercased()
            guard Self.recurrenceProperties.contains(name) else { continue }
            text.line(head, String(line[line.index(after: colon)...]))
        }
        text.end("VEVENT")
        return text.text
    }

    /// A time as an iCalendar DATE or DATE-TIME value with its parameters: a day; the zone's wall
    /// clock with TZID; or UTC (always when `inUTC`). Nil when it is neither.
    static func property(_ time: Time, inUTC: Bool, timeZones: (String) -> TimeZoneRules?) -> (value: String, parameters: [String])? {
        if let date = time.date {
            let digits = date.filter { $0 != "-" }
            guard date.utf8.count == 10, digits.count == 8, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            return (digits, ["VALUE=DATE"])
        }
        guard let text = time.dateTime, let instant = WallClock.Instant(rfc3339: text) else { return nil }
        if !inUTC, let name = time.timeZone, let zone = timeZones(name) {
            let offset = zone.secondsFromUTC(at: Date(timeIntervalSince1970: Double(instant.seconds)))
            return (basic(Int(instant.seconds) + offset, utc: false), ["TZID=" + name])
        }
        return (basic(Int(instant.seconds), utc: true), [])
    }

    /// `seconds` since 1970 of a wall clock as `YYYYMMDDTHHMMSS` (with `Z` in UTC).
    private static func basic(_ seconds: Int, utc: Bool) -> String {
        let day = CivilCalendar.floorDivide(seconds, 86_400)
        let second = seconds - day * 86_400
        let (year, month, dayOfMonth) = CivilCalendar.date(fromDayNumber: day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)\(two(month))\(two(dayOfMonth))T\(two(second / 3600))\(two(second % 3600 / 60))\(two(second % 60))" + (utc ? "Z" : "")
    }
}
