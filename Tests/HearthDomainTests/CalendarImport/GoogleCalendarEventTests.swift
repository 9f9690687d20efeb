import Foundation
import HearthDomain
import Testing

/// Google Calendar's events (the API's JSON) written as VEVENT text and read back by the calendar
/// file parser and expansion, as synced calendars store them; and chores written as the JSON of an
/// event to export.
struct GoogleCalendarEventTests {
    private static func decode(_ json: String) throws -> GoogleCalendarEvent {
        try JSONDecoder().decode(GoogleCalendarEvent.self, from: Data(json.utf8))
    }

    /// The occurrences in January 2027 of `events`, as `summary start` (UTC), cancelled ones left out.
    private static func january(_ events: [GoogleCalendarEvent]) throws -> [String] {
        let file = try CalendarFile.parse(stored: "", events: try events.map { try $0.vevent(timeZones: TimeZoneRules.named) })
        let occurrences = try file.occurrences(
            from: Date(timeIntervalSince1970: 1_798_761_600), to: Date(timeIntervalSince1970: 1_801_440_000), timeZone: .utc, limit: 100)
        return occurrences.map { "\($0.summary) \(ISO8601DateFormatter().string(from: $0.start))\($0.isBusy ? "" : " free")" }
    }

    @Test func aTimedEventWithAZoneIsWrittenOnThatZonesWallClockAndASeriesKeepsItsHourAcrossDST() throws {
        let series = try Self.decode("""
            {"id": "standup", "status": "confirmed", "summary": "Standup; daily, short", "location": "Room 1",
             "start": {"dateTime": "2027-03-22T08:00:00Z", "timeZone": "Europe/Berlin"},
             "end": {"dateTime": "2027-03-22T08:15:00Z", "timeZone": "Europe/Berlin"},
             "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=2", "EXDATE;TZID=Europe/Berlin:20270329T090000", "X-EVIL:END:VEVENT"]}
            """)
        let text = try series.vevent(timeZones: TimeZoneRules.named)
        #expect(text.contains("DTSTART;TZID=Europe/Berlin:20270322T090000\r\n"), "\(text)")
        #expect(text.contains("SUMMARY:Standup\\; daily\\, short\r\n") && text.contains("LOCATION:Room 1\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;COUNT=2\r\n") && text.contains("EXDATE;TZID=Europe/Berlin:20270329T090000\r\n"))
        #expect(!text.contains("X-EVIL"), "only recurrence properties are copied")
        let parsed = try #require(try CalendarFile.parse(stored: "", events: [text]).events.first)
        #expect(parsed.uid == "standup" && parsed.recurrenceKey.isEmpty && parsed.isRecurring)
    }

    @Test func overridesCancelledInstancesAllDayAndFreeEventsExpandAsGoogleShowsThem() throws {
        let events = try [
            Self.decode("""
                {"id": "standup", "summary": "Standup", "start": {"dateTime": "2027-01-04T09:00:00+01:00", "timeZone": "Europe/Berlin"},
                 "end": {"dateTime": "2027-01-04T09:15:00+01:00", "timeZone": "Europe/Berlin"}, "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=3"]}
                """),
            Self.decode("""
                {"id": "standup_20270111T080000Z", "recurringEventId": "standup", "summary": "Standup (late)",
                 "originalStartTime": {"dateTime": "2027-01-11T09:00:00+01:00", "timeZone": "Europe/Berlin"},
                 "start": {"dateTime": "2027-01-11T10:00:00+01:00", "timeZone": "Europe/Berlin"},
                 "end": {"dateTime": "2027-01-11T10:15:00+01:00", "timeZone": "Europe/Berlin"}}
                """),
            Self.decode("""
                {"id": "standup_20270118T080000Z", "recurringEventId": "standup", "status": "cancelled",
                 "originalStartTime": {"dateTime": "2027-01-18T09:00:00+01:00", "timeZone": "Europe/Berlin"}}
                """),
            Self.decode("""
                {"id": "holiday", "summary": "Holiday", "transparency": "transparent", "start": {"date": "2027-01-08"}, "end": {"date": "2027-01-09"}}
                """),
            Self.decode("""
                {"id": "dentist", "summary": "Dentist", "start": {"dateTime": "2027-01-06T15:00:00+01:00"}, "end": {"dateTime": "2027-01-06T16:00:00+01:00"}}
                """),
        ]
        #expect(try Self.january(events) == [
            "Standup 2027-01-04T08:00:00Z", "Dentist 2027-01-06T14:00:00Z", "Holiday 2027-01-08T00:00:00Z free", "Standup (late) 2027-01-11T09:00:00Z",
        ])
        let override = try #require(try CalendarFile.parse(stored: "", events: [try events[1].vevent(timeZones: TimeZoneRules.named)]).events.first)
        #expect(override.uid == "standup" && override.recurrenceKey.hasSuffix(":20270111T080000Z"), "an instance overrides its series' occurrence: \(override.recurrenceKey)")
        #expect(events[2].isCancelled && events[2].isOverride && events[2].uid == "standup")
    }

    @Test func anEventWithoutAReadableStartIsRefusedAndAZoneTheDatabaseLacksFallsBackToUTC() throws {
        #expect(throws: RecurrenceError.self) {
            try Self.decode(#"{"id": "broken", "start": {"dateTime": "tomorrow"}}"#).vevent(timeZones: TimeZoneRules.named)
        }
        let unknown = try Self.decode(#"{"id": "x", "start": {"dateTime": "2027-01-04T09:00:00+01:00", "timeZone": "Mars/Olympus"}}"#)
        #expect(try unknown.vevent(timeZones: TimeZoneRules.named).contains("DTSTART:20270104T080000Z\r\n"))
    }

    @Test func aChoreIsExportedWithAnIdGoogleAcceptsItsTimesAndItsRecurrence() throws {
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        let rule = try RecurrenceRule.parse("DTSTART;TZID=Europe/Berlin:20270104T180000\nRRULE:FREQ=WEEKLY;BYDAY=MO", defaultTimeZone: berlin)
        let chore = ICalendarEvent(
            uid: "chr_0192d5e0-0000-7000-8000-000000000001", sequence: 2, lastModified: Date(timeIntervalSince1970: 1_798_000_000),
            summary: "Bins", start: .local(Date(timeIntervalSince1970: 1_799_082_000), berlin), end: nil, recurrence: rule, isTransparent: true,
            category: "Chore")
        #expect(chore.googleEventID.count == 46 && chore.googleEventID.allSatisfy { "0123456789abcdefghijklmnopqrstuv".contains($0) })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(chore.googleEventJSON)) as? [String: Any])
        #expect(json["id"] as? String == chore.googleEventID && json["summary"] as? String == "Bins" && json["transparency"] as? String == "transparent")
        let start = try #require(json["start"] as? [String: String])
        #expect(start == ["dateTime": "2027-01-04T18:00:00", "timeZone": "Europe/Berlin"], "\(start)")
        #expect(json["end"] as? [String: String] == start, "a due time ends when it starts")
        #expect(json["recurrence"] as? [String] == ["RRULE:FREQ=WEEKLY;BYDAY=MO"], "\(json)")
        #expect(chore.googleEventJSON == chore.googleEventJSON, "the same bytes every time, so an unchanged chore sends nothing")
    }
}
