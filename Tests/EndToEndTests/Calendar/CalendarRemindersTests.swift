import Foundation
import GraphQL
import Testing

/// The `calendar` query's reminders and imported events (FR-59 with FR-49 and FR-61) through the
/// binary: each reminder that reaches the caller on the day it fires, naming its instance, also
/// when its chore is due after the range; where quiet hours or busy time really put it, and what
/// became of it (FR-50A/B); the events of their imported calendars, read-only, timed and all-day,
/// grouped by day.
@Suite struct CalendarRemindersTests {
    @Test func FR_59_theCalendarShowsTheCallersRemindersAndImportedEvents() throws {
        try ServerProcess.withChoreFamily { server, f in
            _ = try server.chore("Dishes", in: f.householdID, as: f.ana, [
                "schedule": ["once": "2036-03-01T09:00:00Z"], "reminders": [["before": "PT1H"], ["before": "P1D"]],
            ])
            _ = try server.chore("Ben's laundry", in: f.householdID, as: f.ana, [
                "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": "2036-03-01T12:00:00Z"],
                "reminders": [["before": "PT30M"]],
            ])
            let file = """
                BEGIN:VCALENDAR\r
                VERSION:2.0\r
                PRODID:-//Hearth tests//EN\r
                BEGIN:VEVENT\r
                UID:standup\r
                DTSTAMP:20360101T000000Z\r
                DTSTART:20360301T100000Z\r
                DTEND:20360301T110000Z\r
                SUMMARY:Standup\r
                END:VEVENT\r
                BEGIN:VEVENT\r
                UID:holiday\r
                DTSTAMP:20360101T000000Z\r
                DTSTART;VALUE=DATE:20360302\r
                DTEND;VALUE=DATE:20360303\r
                SUMMARY:Holiday\r
                TRANSP:TRANSPARENT\r
                END:VEVENT\r
                END:VCALENDAR\r

                """
            let imported = try server.importCalendar(Array(file.utf8), name: "Work", as: f.ana)
            #expect(imported.errorCode == nil, "\(imported.json)")

            let anas = try server.calendarLines(from: "2036-02-29", to: "2036-03-02", reminders: true, as: f.ana)
            #expect(anas == [
                "2036-02-29 reminder P1D Dishes 2036-02-29T09:00:00.000Z",
                "2036-03-01 reminder PT1H Dishes 2036-03-01T08:00:00.000Z",
                "2036-03-01 Dishes 2036-03-01T09:00:00.000Z",
                "2036-03-01 Standup 2036-03-01T10:00:00.000Z",
                "2036-03-01 Ben's laundry 2036-03-01T12:00:00.000Z",
                "2036-03-02 Holiday 2036-03-02T00:00:00.000Z",
            ], "Ben's own chore shows, its reminder is his: \(anas)")
            #expect(try server.calendarLines(from: "2036-03-01", to: "2036-03-01", reminders: true, as: f.ben) == [
                "2036-03-01 reminder PT1H Dishes 2036-03-01T08:00:00.000Z",
                "2036-03-01 Dishes 2036-03-01T09:00:00.000Z",
                "2036-03-01 reminder PT30M Ben's laundry 2036-03-01T11:30:00.000Z",
                "2036-03-01 Ben's laundry 2036-03-01T12:00:00.000Z",
            ], "Ana's imported events are hers alone")

            // A reminder that fires on the range's last day is on it, though its chore is due the day after.
            #expect(try server.calendarLines(from: "2036-02-28", to: "2036-02-29", reminders: true, as: f.ana) == [
                "2036-02-29 reminder P1D Dishes 2036-02-29T09:00:00.000Z",
            ])

            let calendar = try server.calendarResponse(from: "2036-03-01", to: "2036-03-01", as: f.ana)
            let entries = try #require(calendar.data?["calendar"]?["days"]?[0]?["entries"]?.elements, "\(calendar.json)")
            let reminder = try #require(entries.first { $0["__typename"] == "ReminderOccurrence" })
            let instance = try #require(entries.first { $0["__typename"] == "ChoreInstance" })
            #expect(reminder["choreInstance"]?["id"] == instance["id"] && instance["chore"]?["title"] == "Dishes", "\(entries)")
            let standup = try #require(entries.first { $0["__typename"] == "ImportedCalendarEvent" })
            #expect(standup["busy"] == true && standup["endsAt"] == "2036-03-01T11:00:00.000Z", "\(standup)")
        }
    }

    /// `person`'s reminders on the calendar of the days around `due` as
    /// `<before> fires <firesAt to the minute> planned <plannedAt> <outcome> <reason>`.
    private static func reminders(around due: Date, _ server: ServerProcess, as person: ServerProcess.Person) throws -> [String] {
        let day = { (date: Date) in String(BusyReminderTests.text(date).prefix(10)) }
        let answer = try server.graphQL(
            """
            query($from: Date!, $to: Date!) { calendar(from: $from, to: $to) { days { entries { __typename
              ... on ReminderOccurrence { before firesAt plannedAt deliveryOutcome delayReason skippedReason } } } } }
            """,
            variables: ["from": .string(day(due.addingTimeInterval(-86_400))), "to": .string(day(due.addingTimeInterval(86_400)))], token: person.token)
        let days = try #require(answer.data?["calendar"]?["days"]?.elements, "\(answer.json)")
        let entries: [JSON] = days.flatMap { $0["entries"]?.elements ?? [] }
        return entries.filter { $0["__typename"] == "ReminderOccurrence" }.map { (entry: JSON) -> String in
            let reason: String = entry["delayReason"]?.stringValue ?? entry["skippedReason"]?.stringValue ?? "-"
            let firesAt: String = String((entry["firesAt"]?.stringValue ?? "?").prefix(16))
            let plannedAt: String = String((entry["plannedAt"]?.stringValue ?? "?").prefix(16))
            let outcome: String = entry["deliveryOutcome"]?.stringValue ?? "PLANNED"
            return "\(entry["before"]?.stringValue ?? "?") fires \(firesAt) planned \(plannedAt) \(outcome) \(reason)"
        }
    }

    @Test func FR_59_FR_50A_FR_50B_theCalendarShowsWhereBusyTimeReallyPutEachReminder() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"])
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = BusyReminderTests.minute(5 * 3600, after: Date())
        let planned = due.addingTimeInterval(-2 * 3600)
        let minute = { (date: Date) in String(BusyReminderTests.text(date).prefix(16)) }
        try BusyReminderTests.sharedChore(server, f, "Bins", due: due, reminders: ["PT2H", "PT0S"])
        // Ana avoids busy times: busy from before the first reminder until an hour before the due
        // time, and again from just before the due time on. Ben does not.
        #expect(try server.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ana).errorCode == nil)
        for (start, end) in [(planned.addingTimeInterval(-600), due.addingTimeInterval(-3600)), (due.addingTimeInterval(-300), due.addingTimeInterval(3600))] {
            #expect(try server.createAvailabilityEvent(
                ["title": "Busy", "startsAt": .string(BusyReminderTests.text(start)), "endsAt": .string(BusyReminderTests.text(end))], as: f.ana).errorCode == nil)
        }
        let toCome = ["PT2H fires \(minute(planned)) planned \(minute(planned)) PLANNED -", "PT0S fires \(minute(due)) planned \(minute(due)) PLANNED -"]
        #expect(try Self.reminders(around: due, server, as: f.ana) == toCome, "still to come: as planned")

        // The first fires: Ben's goes out on time; Ana's waits for the end of her busy time.
        try server.moveClock(to: planned.addingTimeInterval(1))
        try server.waitForDueJobs()
        let freeAt = minute(due.addingTimeInterval(-3600))
        #expect(try Self.reminders(around: due, server, as: f.ana).first == "PT2H fires \(freeAt) planned \(minute(planned)) DELAYED BUSY", "decided: waiting")
        #expect(try Self.reminders(around: due, server, as: f.ben).first == "PT2H fires \(minute(planned)) planned \(minute(planned)) DELIVERED -")

        // Delivered in the free slot; the one at due time falls in busy time with none left: skipped, at its planned time.
        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        try server.moveClock(to: due.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try Self.reminders(around: due, server, as: f.ana) == [
            "PT2H fires \(freeAt) planned \(minute(planned)) DELAYED BUSY", "PT0S fires \(minute(due)) planned \(minute(due)) SKIPPED BUSY",
        ])
        // Completed now, the instance keeps the reminders that reached Ana.
        let instance = try #require(try server.databaseText("SELECT i.id FROM chore_instances i JOIN chores c ON c.id = i.chore_id WHERE c.title = 'Bins'"))
        let completed = try server.completeChore(instance, as: f.ana)
        #expect(completed.errorCode == nil, "\(completed.json)")
        #expect(try Self.reminders(around: due, server, as: f.ana).count == 2)
    }
}
