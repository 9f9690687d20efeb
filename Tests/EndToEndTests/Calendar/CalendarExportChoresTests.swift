import Foundation
import GraphQL
import TestPython
import Testing

/// Calendar export's chores (FR-60) through the binary, read back with Python's `icalendar`
/// (``CalendarExportTests/oracle``): the household chores assigned to the feed's owner when the
/// feed includes them, a chore due after each completion as one event at its next due time
/// without RRULE, and SEQUENCE counting the edits of a chore's title and schedule (and the
/// completions that move an after-completion chore) with a new ETag each time.
@Suite struct CalendarExportChoresTests {
    /// What the oracle prints about the file at `path` for March 2027 (Berlin days).
    private static func read(_ file: URL, _ body: [UInt8]) throws -> [String] {
        try Data(body).write(to: file)
        return try TestPython.runScript(CalendarExportTests.oracle, [file.path, "2027-03-01T00:00:00", "2027-04-01T00:00:00", "Europe/Berlin"])
    }

    /// The feed path in a `createCalendarFeed` answer.
    private static func path(_ made: ServerProcess.GraphQLResponse) throws -> String {
        let url = try #require(made.data?["createCalendarFeed"]?["url"]?.stringValue, "\(made.json)")
        return try #require(url.range(of: "/calendar/").map { String(url[$0.lowerBound...]) })
    }

    @Test func FR_60_assignedHouseholdChoresJoinWhenChosenAfterCompletionChoresAreSingleEventsAndSequenceCountsEdits() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T08:00:00Z")
        let f = try server.choreFamily()
        let ben: JSON = .string(f.benMemberID)
        let bins = try server.chore("Bins", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [ben],
            "schedule": ["recurrence": "DTSTART;TZID=Europe/Berlin:20270305T070000\nRRULE:FREQ=WEEKLY;COUNT=3"],
        ])
        _ = try server.chore("Hoover", in: f.householdID, as: f.ana, ["assignmentMode": "ALL_MEMBERS", "schedule": ["once": "2027-03-10T09:00:00Z"]])
        _ = try server.chore("Dishes", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.anaMemberID)], "schedule": ["once": "2027-03-11T09:00:00Z"],
        ])
        _ = try server.chore("Cara's plants", in: f.caraHouseholdID, as: f.cara, ["schedule": ["once": "2027-03-12T09:00:00Z"]])
        let stretch = try server.chore("Stretch", in: nil, as: f.ben, [
            "schedule": ["afterCompletion": ["every": 2, "unit": "DAYS", "firstDueAt": "2027-03-02T07:00:00Z"]],
        ])
        let stretchID = try #require(stretch["id"]?.stringValue)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: file) }

        // Without the choice, only Ben's personal chores; the after-completion one at its first due time, no RRULE.
        let personalOnly = try server.get(try Self.path(server.graphQL("mutation { createCalendarFeed(input: {}) { url } }", token: f.ben.token)))
        let alone = try Self.read(file, personalOnly.body)
        #expect(alone.filter { $0.hasPrefix("START ") } == ["START Stretch SINGLE 2027-03-02T07:00:00.000Z"], "\(alone)")
        #expect(alone.contains("Stretch 2027-03-02T07:00:00.000Z") && alone.contains("SEQUENCE Stretch 0"), "\(alone)")

        // With it: the household chores assigned to him (his own, and the one for every member), not Ana's nor another household's.
        let made = try server.graphQL(
            "mutation { createCalendarFeed(input: {includeHouseholdChores: true}) { url feed { includesHouseholdChores includesAvailabilityEvents } } }",
            token: f.ben.token)
        #expect(made.data?["createCalendarFeed"]?["feed"] == ["includesHouseholdChores": true, "includesAvailabilityEvents": true], "\(made.json)")
        #expect(try server.graphQL("{ myCalendarFeed { includesHouseholdChores } }", token: f.ben.token).data?["myCalendarFeed"]?["includesHouseholdChores"] == true)
        let path = try Self.path(made)
        let feed = try server.get(path)
        let printed = try Self.read(file, feed.body)
        let occurrences = Set(printed.filter { !$0.hasPrefix("SEQUENCE ") && !$0.hasPrefix("START ") })
        #expect(occurrences == [
            "Bins 2027-03-05T06:00:00.000Z", "Bins 2027-03-12T06:00:00.000Z", "Bins 2027-03-19T06:00:00.000Z",
            "Hoover 2027-03-10T09:00:00.000Z", "Stretch 2027-03-02T07:00:00.000Z",
        ], "\(printed)")
        #expect(printed.contains("START Bins RRULE 2027-03-05T06:00:00.000Z") && printed.contains("SEQUENCE Bins 0"), "\(printed)")
        let anas = try server.get("/calendar.ics", headers: "Authorization: Bearer \(f.ana.token)\r\n").text
        #expect(anas.contains("SUMMARY:Dishes") && anas.contains("SUMMARY:Hoover") && !anas.contains("SUMMARY:Bins"), "the download has Ana's")

        // Completing the after-completion chore moves its one event to the next due time, SEQUENCE up, a new ETag.
        let etag = try #require(feed.headers["ETag"])
        #expect(try server.get(path, headers: "If-None-Match: \(etag)\r\n").status == 304)
        let completed = try server.completeChore(try #require(try server.storedInstanceIDs(of: stretchID).first), as: f.ben)
        #expect(completed.json["errors"] == nil, "\(completed.json)")
        let next = try #require(try server.databaseText(
            "SELECT due_at FROM chore_instances WHERE chore_id = '\(stretchID)' AND status = 'pending'"))
        let moved = try server.get(path, headers: "If-None-Match: \(etag)\r\n")
        #expect(moved.status == 200 && moved.headers["ETag"] != etag)
        let afterCompletion = try Self.read(file, moved.body)
        let start = try #require(afterCompletion.first { $0.hasPrefix("START Stretch ") }, "\(afterCompletion)")
        #expect(start.hasPrefix("START Stretch SINGLE \(next.prefix(19))") && !next.hasPrefix("2027-03-02"), "\(start) \(next)")
        #expect(afterCompletion.contains("SEQUENCE Stretch 2"), "\(afterCompletion)")

        // A new title: SEQUENCE 1. A new description only: SEQUENCE stays (a new ETag: DTSTAMP is the last edit). A new schedule: 2.
        let binsID = try #require(bins["id"])
        #expect(try server.updateChore(["choreId": binsID, "title": "Bins out"], as: f.ana).json["errors"] == nil)
        #expect(try Self.read(file, server.get(path).body).contains("SEQUENCE Bins out 1"))
        #expect(try server.updateChore(["choreId": binsID, "description": "Blue bin first"], as: f.ana).json["errors"] == nil)
        let described = try server.get(path)
        #expect(try Self.read(file, described.body).contains("SEQUENCE Bins out 1"))
        let latest = try #require(described.headers["ETag"])
        #expect(try server.get(path, headers: "If-None-Match: \(latest)\r\n").status == 304)
        let rescheduled = try server.updateChore(
            ["choreId": binsID, "schedule": ["recurrence": "DTSTART;TZID=Europe/Berlin:20270306T070000\nRRULE:FREQ=WEEKLY;COUNT=2"]], as: f.ana)
        #expect(rescheduled.json["errors"] == nil, "\(rescheduled.json)")
        let changed = try server.get(path, headers: "If-None-Match: \(latest)\r\n")
        #expect(changed.status == 200)
        let final = try Self.read(file, changed.body)
        #expect(final.contains("SEQUENCE Bins out 2") && final.contains("Bins out 2027-03-13T06:00:00.000Z"), "\(final)")
    }
}
