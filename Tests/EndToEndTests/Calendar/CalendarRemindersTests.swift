import Foundation
import GraphQL
import Testing

/// The `calendar` query's reminders and imported events (FR-59 with FR-49 and FR-61) through the
/// binary: each reminder that reaches the caller on the day it fires, naming its instance; the
/// events of their imported calendars, read-only, timed and all-day, grouped by day.
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

            let calendar = try server.calendarResponse(from: "2036-03-01", to: "2036-03-01", as: f.ana)
            let entries = try #require(calendar.data?["calendar"]?["days"]?[0]?["entries"]?.elements, "\(calendar.json)")
            let reminder = try #require(entries.first { $0["__typename"] == "ReminderOccurrence" })
            let instance = try #require(entries.first { $0["__typename"] == "ChoreInstance" })
            #expect(reminder["choreInstance"]?["id"] == instance["id"] && instance["chore"]?["title"] == "Dishes", "\(entries)")
            let standup = try #require(entries.first { $0["__typename"] == "ImportedCalendarEvent" })
            #expect(standup["busy"] == true && standup["endsAt"] == "2036-03-01T11:00:00.000Z", "\(standup)")
        }
    }
}
