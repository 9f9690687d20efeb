import Foundation
import GraphQL
import Testing

/// FR-61 through the binary: an .ics file uploaded with `importCalendar` (a multipart request)
/// becomes a read-only calendar of its user, expanded by `importedCalendarEvents` in the user's
/// time zone; importing again is idempotent by UID; malformed files are refused naming the line;
/// the limits hold at their edges.
@Suite struct ImportedCalendarTests {
    @Test func FR_61_anUploadedICSFileShowsItsEventsExpandedReadOnlyAndAReimportChangesNothing() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let bob = try server.person("bob")
        try server.setTimeZone("Europe/Berlin", of: ana)
        let file = try ServerProcess.calendarFixture("weekly-berlin")

        let imported = try server.importCalendar(file, name: "Work", as: ana)
        let calendar = try #require(imported.data?["importCalendar"]?["calendar"], "\(imported.json)")
        #expect(calendar["name"] == "Work")
        #expect(calendar["eventCount"] == 4)
        let calendarID = try #require(calendar["id"]?.stringValue)
        #expect(calendarID.hasPrefix("icl_"))

        // The week of 23 March 2026: the Monday stand-up, the Wednesday one moved to 14:00 (an
        // override), the lunches every other day in New York; the EXDATE'd and cancelled ones are
        // outside or gone.
        let week = try server.importedCalendarEvents(from: "2026-03-23T00:00:00Z", to: "2026-03-30T00:00:00Z", as: ana)
        let events = try #require(week.data?["importedCalendarEvents"]?.elements, "\(week.json)")
        #expect(events.map { [$0["summary"], $0["startsAt"], $0["endsAt"]] } == [
            [.string("Stand-up, team Ü with a summary long enough that a calendar app folds it onto a second line"), "2026-03-23T08:00:00.000Z", "2026-03-23T08:30:00.000Z"],
            ["Lunch", "2026-03-24T16:00:00.000Z", "2026-03-24T17:00:00.000Z"],
            ["Stand-up (moved)", "2026-03-25T13:00:00.000Z", "2026-03-25T14:00:00.000Z"],
            ["Lunch", "2026-03-26T16:00:00.000Z", "2026-03-26T17:00:00.000Z"],
            ["Lunch", "2026-03-28T16:00:00.000Z", "2026-03-28T17:00:00.000Z"],
        ])
        #expect(events[0]["location"] == "Room 4; second floor")
        #expect(events[2]["recurrenceId"] == "2026-03-25T08:00:00.000Z")
        #expect(events.allSatisfy { $0["calendarId"]?.stringValue == calendarID && $0["busy"] == true && $0["allDay"] == false })
        let eventIDs = events.map { $0["eventId"] }

        // The same file again: the same calendar, the same events.
        let again = try server.importCalendar(file, name: "work", as: ana)
        #expect(again.data?["importCalendar"]?["calendar"]?["id"]?.stringValue == calendarID, "\(again.json)")
        let weekAgain = try server.importedCalendarEvents(from: "2026-03-23T00:00:00Z", to: "2026-03-30T00:00:00Z", as: ana)
        #expect(weekAgain.data?["importedCalendarEvents"]?.elements?.map { $0["eventId"] } == eventIDs)
        #expect(try server.importedCalendars(as: ana)?.elements?.count == 1)

        // A new version of the file without the lunches replaces the calendar's events.
        let withoutLunch = String(decoding: file, as: UTF8.self).replacingOccurrences(
            of: "BEGIN:VEVENT\r\nUID:lunch@hearth.test\r\nDTSTAMP:20260301T000000Z\r\nSUMMARY:Lunch\r\nDTSTART;TZID=America/New_York:20260310T120000\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY;COUNT=10;INTERVAL=2\r\nEND:VEVENT\r\n",
            with: "")
        #expect(withoutLunch.utf8.count < file.count)
        let replaced = try server.importCalendar(Array(withoutLunch.utf8), name: "Work", as: ana)
        #expect(replaced.data?["importCalendar"]?["calendar"]?["eventCount"] == 3, "\(replaced.json)")
        let weekReplaced = try server.importedCalendarEvents(from: "2026-03-23T00:00:00Z", to: "2026-03-30T00:00:00Z", as: ana)
        #expect(weekReplaced.data?["importedCalendarEvents"]?.elements?.map { $0["summary"] } == [
            events[0]["summary"], "Stand-up (moved)",
        ])

        // Nobody else sees or deletes it.
        #expect(try server.importedCalendars(as: bob) == [])
        let bobsWeek = try server.importedCalendarEvents(from: "2026-03-23T00:00:00Z", to: "2026-03-30T00:00:00Z", as: bob)
        #expect(bobsWeek.data?["importedCalendarEvents"] == [])
        let delete = "mutation($input: DeleteImportedCalendarInput!) { deleteImportedCalendar(input: $input) { deletedCalendarId } }"
        let bobDeletes = try server.graphQL(delete, variables: ["input": ["id": .string(calendarID)]], token: bob.token)
        #expect(bobDeletes.errorCode == "NOT_FOUND", "\(bobDeletes.json)")
        let anaDeletes = try server.graphQL(delete, variables: ["input": ["id": .string(calendarID)]], token: ana.token)
        #expect(anaDeletes.data?["deleteImportedCalendar"]?["deletedCalendarId"]?.stringValue == calendarID, "\(anaDeletes.json)")
        #expect(try server.importedCalendars(as: ana) == [])
    }

    @Test func FR_61_wholeDayEventsAreTheUsersDaysAndTransparentOnesAreNotBusy() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        try server.setTimeZone("America/Los_Angeles", of: ana)
        let imported = try server.importCalendar(try ServerProcess.calendarFixture("all-day"), name: "Home", as: ana)
        #expect(imported.data?["importCalendar"]?["calendar"]?["eventCount"] == 4, "\(imported.json)")
        let range = try server.importedCalendarEvents(from: "2028-02-28T00:00:00Z", to: "2028-03-02T00:00:00Z", as: ana)
        let events = try #require(range.data?["importedCalendarEvents"]?.elements, "\(range.json)")
        #expect(events.map { [$0["summary"], $0["startDate"], $0["endDate"], $0["startsAt"], $0["busy"], $0["allDay"]] } == [
            ["Birthday", "2028-02-29", "2028-03-01", "2028-02-29T08:00:00.000Z", false, true],
        ])
    }

    @Test func FR_61_aMalformedFileIsRefusedNamingItsLineAndChangesNothing() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let broken = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260230T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let refused = try server.importCalendar(broken, name: "Broken", as: ana)
        #expect(refused.errorCode == "BAD_USER_INPUT", "\(refused.json)")
        #expect(refused.errorExtensions?["field"] == "input.file")
        #expect(refused.errorExtensions?["reason"] == "INVALID_FORMAT")
        #expect(refused.errorExtensions?["line"] == 4)
        #expect(refused.json["errors"]?[0]?["message"]?.stringValue?.hasPrefix("Line 4: DTSTART") == true, "\(refused.json)")
        let unknownZone = Array("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nDTSTART;TZID=Nowhere/Special:20260301T100000\nEND:VEVENT\nEND:VCALENDAR\n".utf8)
        let zoneRefused = try server.importCalendar(unknownZone, name: "Broken", as: ana)
        #expect(zoneRefused.errorExtensions?["reason"] == "UNKNOWN_VALUE", "\(zoneRefused.json)")
        #expect(zoneRefused.errorExtensions?["line"] == 4)
        let binary = try server.importCalendar([0xFF, 0xD8, 0xFF, 0x00, 0x10], name: "Broken", as: ana)
        #expect(binary.errorExtensions?["reason"] == "INVALID_FORMAT", "\(binary.json)")
        #expect(binary.errorExtensions?["line"] == 1)
        #expect(try server.importedCalendars(as: ana) == [])
    }

    @Test func FR_61_theFileSizeEventAndOccurrenceLimitsHoldAtTheirEdges() throws {
        // The fixture padded with an X- property to exactly 1 KiB, the smallest byte limit.
        let fixture = String(decoding: try ServerProcess.calendarFixture("outlook-vtimezone"), as: UTF8.self)
        let padding = "X-PADDING:" + String(repeating: "a", count: 1024 - fixture.utf8.count - "X-PADDING:\r\n".utf8.count) + "\r\n"
        let file = Array(fixture.replacingOccurrences(of: "VERSION:2.0\r\n", with: "VERSION:2.0\r\n" + padding).utf8)
        try #require(file.count == 1024)
        let server = try ServerProcess(ServerProcess.householdArguments + [
            "--calendar-import-max-bytes", "1KiB", "--calendar-import-max-events", "1", "--calendar-max-occurrences", "6",
        ])
        defer { server.remove() }
        let ana = try server.person("ana")
        #expect(try server.importCalendar(file, name: "Outlook", as: ana).data?["importCalendar"]?["calendar"]?["eventCount"] == 1)
        let tooLarge = try server.importCalendar(file + Array("\r\n".utf8), name: "Outlook", as: ana)
        #expect(tooLarge.errorExtensions?["reason"] == "TOO_LARGE", "\(tooLarge.json)")
        #expect(tooLarge.errorExtensions?["limit"] == .int(file.count))
        let twoEvents = Array("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20260301T100000Z\nEND:VEVENT\nBEGIN:VEVENT\nUID:b\nDTSTART:20260301T100000Z\nEND:VEVENT\nEND:VCALENDAR\n".utf8)
        let tooMany = try server.importCalendar(twoEvents, name: "Two", as: ana)
        #expect(tooMany.errorExtensions?["reason"] == "TOO_LARGE", "\(tooMany.json)")
        #expect(tooMany.errorExtensions?["limit"] == 1)
        #expect(tooMany.errorExtensions?["line"] == 6)

        // Six weekly occurrences (COUNT=6) from 19 March: all six fit the limit; a seventh cannot exist.
        let all = try server.importedCalendarEvents(from: "2026-03-01T00:00:00Z", to: "2026-06-01T00:00:00Z", as: ana)
        let events = try #require(all.data?["importedCalendarEvents"]?.elements, "\(all.json)")
        #expect(events.count == 6)
        // W. Europe Standard Time from the file's VTIMEZONE: 08:00 is 07:00Z before 29 March, 06:00Z after.
        #expect(events.prefix(3).map { $0["startsAt"] } == ["2026-03-19T07:00:00.000Z", "2026-03-26T07:00:00.000Z", "2026-04-02T06:00:00.000Z"])
    }

    @Test func FR_61_moreOccurrencesThanTheLimitAskForAShorterRange() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--calendar-max-occurrences", "5"])
        defer { server.remove() }
        let ana = try server.person("ana")
        #expect(try server.importCalendar(try ServerProcess.calendarFixture("outlook-vtimezone"), name: "Outlook", as: ana).errorCode == nil)
        let five = try server.importedCalendarEvents(from: "2026-03-01T00:00:00Z", to: "2026-04-20T00:00:00Z", as: ana)
        #expect(five.data?["importedCalendarEvents"]?.elements?.count == 5, "\(five.json)")
        let six = try server.importedCalendarEvents(from: "2026-03-01T00:00:00Z", to: "2026-06-01T00:00:00Z", as: ana)
        #expect(six.errorCode == "BAD_USER_INPUT", "\(six.json)")
        #expect(six.errorExtensions?["reason"] == "TOO_LARGE")
        #expect(six.errorExtensions?["limit"] == 5)
    }
}
