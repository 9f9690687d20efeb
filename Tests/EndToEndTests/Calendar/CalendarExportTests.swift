import Foundation
import GraphQL
import TestPython
import Testing

/// Calendar export (FR-60) through the binary: the private feed and the download, read back with
/// Python's `icalendar` and `recurring_ical_events`, whose expansion must match our own (the
/// `calendar` query's occurrences); ETag and 304, SEQUENCE after an edit, revocation, and nobody
/// else's data.
@Suite struct CalendarExportTests {
    /// Parses the file at argv[1] with `icalendar`, checks RFC 5545's framing (CRLF, lines of at most
    /// 75 octets, UID/DTSTAMP/SEQUENCE on every event, a VTIMEZONE for each TZID), and prints each
    /// occurrence from argv[2] to argv[3] (local days in argv[4]) as `<summary> <start in UTC>`,
    /// after `SEQUENCE <summary> <n>` and `START <summary> <RRULE or SINGLE> <DTSTART in UTC>` for each event.
    static let oracle = #"""
        import sys, datetime, zoneinfo, icalendar, recurring_ical_events
        raw = open(sys.argv[1], 'rb').read()
        assert raw.endswith(b'\r\n') and b'\n' not in raw.replace(b'\r\n', b''), 'lines end in CRLF only'
        for line in raw.split(b'\r\n'):
            assert len(line) <= 75, ('folded at 75 octets', line)
        calendar = icalendar.Calendar.from_ical(raw)
        zones = {str(tz['TZID']) for tz in calendar.walk('VTIMEZONE')}
        for event in calendar.walk('VEVENT'):
            assert 'UID' in event and 'DTSTAMP' in event and 'SEQUENCE' in event, event
            tzid = event['DTSTART'].params.get('TZID')
            assert tzid is None or tzid in zones, ('a VTIMEZONE for', tzid)
            print('SEQUENCE', str(event['SUMMARY']), int(event['SEQUENCE']))
            first = event['DTSTART'].dt
            if isinstance(first, datetime.datetime):
                first = first.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.000Z')
            print('START', str(event['SUMMARY']), 'RRULE' if 'RRULE' in event else 'SINGLE', first)
        zone = zoneinfo.ZoneInfo(sys.argv[4])
        start = datetime.datetime.fromisoformat(sys.argv[2]).replace(tzinfo=zone)
        end = datetime.datetime.fromisoformat(sys.argv[3]).replace(tzinfo=zone)
        for occurrence in recurring_ical_events.of(calendar).between(start, end):
            begin = occurrence['DTSTART'].dt
            if not isinstance(begin, datetime.datetime):
                begin = datetime.datetime.combine(begin, datetime.time(), zone)
            print(str(occurrence['SUMMARY']), begin.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.000Z'))
        """#

    @Test func FR_60_theFeedParsesAndItsOccurrencesAreOurOwnWithEtagsSequenceAndRevocation() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T08:00:00Z")
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        try server.setTimeZone("Europe/Berlin", of: ana)
        let long = "Piano, theory; and \\ the rest: ünïcödé 🎹 rehearsal with a title long enough to be folded twice or more"
        _ = try server.chore("Water the plants", in: nil, as: ana, [
            "schedule": ["recurrence": "DTSTART;TZID=Europe/Berlin:20270320T090000\nRRULE:FREQ=WEEKLY;COUNT=5\nEXDATE;TZID=Europe/Berlin:20270403T090000"],
        ])
        _ = try server.chore("Renew passport", in: nil, as: ana, ["schedule": ["once": "2027-04-10T10:00:00Z"]])
        let choir = try server.availabilityEvent([
            "title": .string(String(long.prefix(100))), "startsAt": "2027-03-22T17:00:00Z", "endsAt": "2027-03-22T19:00:00Z",
            "recurrence": "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270415",
        ], as: ana)
        _ = try server.availabilityEvent(["title": "Holiday", "startsOn": "2027-03-29", "endsOn": "2027-03-30", "availability": "FREE"], as: ana)
        _ = try server.availabilityEvent(["title": "Ben's secret", "startsAt": "2027-03-22T17:00:00Z", "endsAt": "2027-03-22T18:00:00Z"], as: ben)

        let made = try server.graphQL(
            "mutation { createCalendarFeed(input: {}) { url feed { includesAvailabilityEvents } } }", token: ana.token)
        let url = try #require(made.data?["createCalendarFeed"]?["url"]?.stringValue, "\(made.json)")
        let path = try #require(url.range(of: "/calendar/").map { String(url[$0.lowerBound...]) })
        let feed = try server.get(path)
        #expect(feed.status == 200 && feed.headers["Content-Type"] == "text/calendar; charset=utf-8")
        #expect(!feed.text.contains("Ben's secret"))

        // The occurrences Python expands are the ones our own engine puts in the calendar.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(feed.body).write(to: file)
        let printed = try TestPython.runScript(Self.oracle, [file.path, "2027-03-01T00:00:00", "2027-05-01T00:00:00", "Europe/Berlin"])
        let theirs = Set(printed.filter { !$0.hasPrefix("SEQUENCE ") && !$0.hasPrefix("START ") })
        let ours = Set(try server.calendarLines(from: "2027-03-01", to: "2027-04-30", as: ana).map { String($0.dropFirst("2027-03-01 ".count)) })
        #expect(theirs == ours, "python: \(theirs.sorted())\nours: \(ours.sorted())")
        #expect(ours.count == 4 + 1 + 8 + 1)  // 4 waterings (one excepted), the passport, 8 choir evenings, the holiday
        #expect(printed.contains("SEQUENCE \(String(long.prefix(100))) 0"), "\(printed)")

        // Unchanged: 304. Edited: a new ETag and SEQUENCE 1.
        let etag = try #require(feed.headers["ETag"])
        #expect(try server.get(path, headers: "If-None-Match: \(etag)\r\n").status == 304)
        let edited = try server.updateAvailabilityEvent(["availabilityEventId": choir["id"]!, "availability": "FREE"], as: ana)
        #expect(edited.errorCode == nil, "\(edited.json)")
        let after = try server.get(path, headers: "If-None-Match: \(etag)\r\n")
        #expect(after.status == 200 && after.headers["ETag"] != etag)
        try Data(after.body).write(to: file)
        let again = try TestPython.runScript(Self.oracle, [file.path, "2027-03-01T00:00:00", "2027-03-02T00:00:00", "Europe/Berlin"])
        #expect(again.contains("SEQUENCE \(String(long.prefix(100))) 1"), "\(again)")

        // The download: signed in only, the same calendar.
        #expect(try server.get("/calendar.ics").status == 401)
        let download = try server.get("/calendar.ics", headers: "Authorization: Bearer \(ana.token)\r\n")
        #expect(download.status == 200 && download.text == after.text)

        // Revoked, or replaced by a new feed: the old URL is gone.
        let remade = try server.graphQL("mutation { createCalendarFeed(input: {includeAvailabilityEvents: false}) { url } }", token: ana.token)
        let newURL = try #require(remade.data?["createCalendarFeed"]?["url"]?.stringValue)
        #expect(newURL != url)
        #expect(try server.get(path).status == 404)
        let newPath = String(newURL[newURL.range(of: "/calendar/")!.lowerBound...])
        let choresOnly = try server.get(newPath)
        #expect(choresOnly.status == 200 && choresOnly.text.contains("Water the plants") && !choresOnly.text.contains("Holiday"))
        let revoked = try server.graphQL("mutation { revokeCalendarFeed(input: {}) { revoked } }", token: ana.token)
        #expect(revoked.data?["revokeCalendarFeed"]?["revoked"] == true)
        #expect(try server.get(newPath).status == 404)
        #expect(try server.get("/calendar/not-a-token.ics").status == 404)
        let feedSettings = try server.graphQL("{ myCalendarFeed { createdAt } }", token: ana.token)
        #expect(feedSettings.data?["myCalendarFeed"] == .null, "\(feedSettings.json)")
    }
}
