import FoundationEssentials
import Support

extension ICalendarEvent {
    /// The id this event has in a Google calendar it is exported to: `hearth` and 40 hex digits of
    /// the SHA-256 of its UID, within the characters and length Google allows client-chosen ids
    /// (base32hex, `0-9a-v`, 5 to 1024), and the same for every export, so an export updates the
    /// event it made before instead of adding another.
    public var googleEventID: String { "hearth" + String(SHA256.hexDigest(uid).prefix(40)) }

    /// The event as the body of Google Calendar's `events.insert` and `events.update`: the same
    /// times, recurrence (RRULE and EXDATE lines, as the ICS feed writes them) and transparency,
    /// with ``googleEventID``. Keys are sorted, so an unchanged event is the same bytes. An event
    /// of no length (a chore's due time) ends when it starts.
    public var googleEventJSON: [UInt8] {
        var text = ICalendarText()
        ICalendarDocument.write(self, into: &text)
        var start: GoogleCalendarEvent.Time?
        var end: GoogleCalendarEvent.Time?
        var recurrence: [String] = []
        for line in text.text.replacing("\r\n ", with: "").split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let head = line[..<colon]
            let value = String(line[line.index(after: colon)...])
            let parameters = head.split(separator: ";").dropFirst()
            switch head.prefix(while: { $0 != ";" }) {
            case "DTSTART": start = Self.googleTime(value, parameters: parameters)
            case "DTEND": end = Self.googleTime(value, parameters: parameters)
            case "RRULE", "EXDATE": recurrence.append(String(line))
            default: break
            }
        }
        let body = Body(
            id: googleEventID, summary: summary, description: "\(category) from Hearth", start: start, end: end ?? start,
            recurrence: recurrence.isEmpty ? nil : recurrence, transparency: isTransparent ? "transparent" : "opaque")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(body)) ?? Data())
    }

    private struct Body: Encodable {
        var id: String
        var summary: String
        var description: String
        var start: GoogleCalendarEvent.Time?
        var end: GoogleCalendarEvent.Time?
        var recurrence: [String]?
        var transparency: String
    }

    /// An iCalendar DATE or DATE-TIME value as Google writes times: `date`, a UTC `dateTime`, or a
    /// wall-clock `dateTime` with its `timeZone`.
    private static func googleTime(_ value: String, parameters: some Sequence<Substring>) -> GoogleCalendarEvent.Time {
        let digits = Array(value)
        func part(_ range: Range<Int>) -> String { range.upperBound <= digits.count ? String(digits[range]) : "" }
        let day = part(0..<4) + "-" + part(4..<6) + "-" + part(6..<8)
        if parameters.contains(where: { $0 == "VALUE=DATE" }) { return GoogleCalendarEvent.Time(date: day) }
        let time = day + "T" + part(9..<11) + ":" + part(11..<13) + ":" + part(13..<15)
        if value.hasSuffix("Z") { return GoogleCalendarEvent.Time(dateTime: time + "Z") }
        let zone = parameters.first { $0.hasPrefix("TZID=") }.map { String($0.dropFirst("TZID=".count)) }
        return GoogleCalendarEvent.Time(dateTime: time, timeZone: zone)
    }
}
