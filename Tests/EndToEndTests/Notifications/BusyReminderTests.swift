import Foundation
import GraphQL
import Testing

/// Reminders that avoid busy times (FR-50A, FR-50B) through the binary, with the test clock: a
/// reminder that falls in a busy event of an imported calendar waits for the free slot before the
/// due time and its record says so; with no free slot it is skipped and recorded; with the
/// preference off it fires on time whatever the calendar says; free (transparent) time does not
/// count. The calendars change after the reminders were planned: the decision is made when they fire.
@Suite struct BusyReminderTests {
    private static let arguments = ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"]

    /// A whole minute `seconds` after `start`.
    static func minute(_ seconds: Double, after start: Date) -> Date {
        Date(timeIntervalSince1970: ((start.timeIntervalSince1970 + seconds) / 60).rounded(.down) * 60)
    }

    /// RFC 3339 of `date`.
    static func text(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// `date` as an iCalendar UTC date-time (`20261202T093000Z`).
    static func stamp(_ date: Date) -> String {
        text(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// An .ics file of timed events `(uid, start, end, transparent)`.
    static func calendar(_ events: [(uid: String, start: Date, end: Date, transparent: Bool)]) -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hearth tests//EN"]
        for event in events {
            lines += ["BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20260101T000000Z", "DTSTART:\(stamp(event.start))", "DTEND:\(stamp(event.end))",
                      "SUMMARY:\(event.uid)"]
            if event.transparent { lines.append("TRANSP:TRANSPARENT") }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A `SINGLE_ACTION` chore of the family's household due once at `due` with `reminders`.
    static func sharedChore(_ server: ServerProcess, _ f: ServerProcess.ChoreFamily, _ title: String, due: Date, reminders: [String]) throws {
        let created = try server.createChore([
            "householdId": .string(f.householdID), "title": .string(title), "schedule": ["once": .string(text(due))],
            "reminders": .array(reminders.map { ["before": .string($0)] }),
        ], as: f.ana)
        #expect(created.errorCode == nil, "\(created.json)")
    }

    /// `person`'s reminders as `title outcome reason original`, oldest first.
    static func outcomes(_ server: ServerProcess, of person: ServerProcess.Person) throws -> [String] {
        try server.notifications(of: person).reversed().filter { $0["kind"] == "REMINDER" }.map { notice in
            let reason = notice["delayReason"]?.stringValue ?? notice["skippedReason"]?.stringValue ?? "-"
            return "\(notice["title"]?.stringValue ?? "?") \(notice["deliveryOutcome"]?.stringValue ?? "?") \(reason) "
                + (notice["originalTime"]?.stringValue.map { String($0.prefix(16)) } ?? "-")
        }
    }

    @Test func FR_50A_FR_50B_aReminderInABusyImportedEventWaitsForTheFreeSlotAndTheRecordSaysSo() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = Self.minute(5 * 3600, after: Date())
        let firesAt = due.addingTimeInterval(-2 * 3600)
        try Self.sharedChore(server, f, "Bins", due: due, reminders: ["PT2H"])
        // After planning: Ana avoids busy times and imports a calendar busy from before the reminder
        // until an hour before the due time, then free (a transparent event, which does not count).
        let chosen = try server.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ana)
        #expect(chosen.data?["updateNotificationPreferences"]?["notificationPreferences"]?["avoidBusyTimes"] == true, "\(chosen.json)")
        let imported = try server.importCalendar(Self.calendar([
            ("meeting", firesAt.addingTimeInterval(-600), due.addingTimeInterval(-3600), false),
            ("holiday-mood", due.addingTimeInterval(-3600), due.addingTimeInterval(3600), true),
        ]), name: "Work", as: f.ana)
        #expect(imported.errorCode == nil, "\(imported.json)")
        // Ben is busy too (a BUSY availability event) but keeps the preference off.
        let busy = try server.createAvailabilityEvent(
            ["title": "Dentist", "startsAt": .string(Self.text(firesAt.addingTimeInterval(-600))), "endsAt": .string(Self.text(due))], as: f.ben)
        #expect(busy.errorCode == nil, "\(busy.json)")

        try server.moveClock(to: firesAt.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try Self.outcomes(server, of: f.ana).isEmpty, "held back while Ana is in her meeting")
        #expect(try Self.outcomes(server, of: f.ben) == ["Bins DELIVERED - -"], "the preference is off: on time")

        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        let original = String(Self.text(firesAt).prefix(16))
        #expect(try Self.outcomes(server, of: f.ana) == ["Bins DELAYED BUSY \(original)"], "delivered in the free slot, and recorded so")
        let notice = try #require(try server.notifications(of: f.ana).first)
        let createdAt = try #require(notice["createdAt"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: String($0.prefix(19)) + "Z") })
        #expect(createdAt >= due.addingTimeInterval(-3600), "not before the meeting ended: \(notice)")
        #expect(try server.databaseText(
            "SELECT CAST(count(*) AS TEXT) FROM notifications WHERE kind = 'reminder'") == "2", "exactly once each")
    }

    @Test func FR_50B_withNoFreeSlotBeforeTheDueTimeTheReminderIsSkippedAndRecorded() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = Self.minute(4 * 3600, after: Date())
        try Self.sharedChore(server, f, "Dishes", due: due, reminders: ["PT1H", "PT0S"])
        #expect(try server.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ben).errorCode == nil)
        #expect(try server.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ana).errorCode == nil)
        let shift = try server.createAvailabilityEvent(
            ["title": "Shift", "startsAt": .string(Self.text(due.addingTimeInterval(-2 * 3600))), "endsAt": .string(Self.text(due.addingTimeInterval(3600)))],
            as: f.ben)
        #expect(shift.errorCode == nil, "\(shift.json)")
        // Ana's FREE availability event is not busy time.
        #expect(try server.createAvailabilityEvent(
            ["title": "Lazy", "availability": "FREE", "startsAt": .string(Self.text(due.addingTimeInterval(-2 * 3600))),
             "endsAt": .string(Self.text(due.addingTimeInterval(3600)))], as: f.ana).errorCode == nil)

        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        try server.moveClock(to: due.addingTimeInterval(1))
        try server.waitForDueJobs()
        let hourBefore = String(Self.text(due.addingTimeInterval(-3600)).prefix(16))
        let atDue = String(Self.text(due).prefix(16))
        let bens = try Self.outcomes(server, of: f.ben)
        #expect(bens == ["Dishes SKIPPED BUSY \(hourBefore)", "Dishes SKIPPED BUSY \(atDue)"], "\(bens)")
        #expect(try Self.outcomes(server, of: f.ana) == ["Dishes DELIVERED - -", "Dishes DELIVERED - -"])
        #expect(try server.noticeLines(of: f.ben) == ["REMINDER Dishes: Due in 1 hour. skipped", "REMINDER Dishes: Due now. skipped"])
    }

    @Test func FR_50A_aDailyBusySeriesThatBeganYearsAgoStillHoldsTheReminderBack() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = Self.minute(5 * 3600, after: Date())
        let firesAt = due.addingTimeInterval(-2 * 3600)
        try Self.sharedChore(server, f, "Bins", due: due, reminders: ["PT2H"])
        #expect(try server.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ana).errorCode == nil)
        // Busy every day for two hours around the reminder's time, since two years ago, without end;
        // beside it, a single event and a finished series at that time of day two years ago.
        let yearsAgo = firesAt.addingTimeInterval(-730 * 86_400)
        let events: [[String: JSON]] = [
            ["title": "Night shift", "startsAt": .string(Self.text(yearsAgo.addingTimeInterval(-600))),
             "endsAt": .string(Self.text(yearsAgo.addingTimeInterval(3600))), "recurrence": "RRULE:FREQ=DAILY"],
            ["title": "Once", "startsAt": .string(Self.text(yearsAgo.addingTimeInterval(-600))), "endsAt": .string(Self.text(yearsAgo.addingTimeInterval(3600)))],
            ["title": "Course", "startsAt": .string(Self.text(yearsAgo.addingTimeInterval(-600))),
             "endsAt": .string(Self.text(yearsAgo.addingTimeInterval(3600))), "recurrence": "RRULE:FREQ=DAILY;COUNT=10"],
        ]
        for event in events { #expect(try server.createAvailabilityEvent(event, as: f.ana).errorCode == nil) }
        // The span each event's occurrences fall in: the series without end has none, so it is always read.
        let spans = try server.databaseColumn(
            "SELECT title || ' ' || coalesce(substr(occupied_until, 1, 10), 'open') FROM availability_events ORDER BY title").joined(separator: ", ")
        let day = { (date: Date) in String(Self.text(date).prefix(10)) }
        #expect(spans == "Course \(day(yearsAgo.addingTimeInterval(9 * 86_400 + 3600))), Night shift open, Once \(day(yearsAgo.addingTimeInterval(3600)))", "\(spans)")

        try server.moveClock(to: firesAt.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try Self.outcomes(server, of: f.ana).isEmpty, "held back by today's night shift")
        try server.moveClock(to: firesAt.addingTimeInterval(3600 + 1))
        try server.waitForDueJobs()
        #expect(try Self.outcomes(server, of: f.ana) == ["Bins DELAYED BUSY \(String(Self.text(firesAt).prefix(16)))"])
    }

    @Test func FR_50B_aDelayedReminderIsDeliveredExactlyOnceAcrossKill9AndARestart() throws {
        let first = try ServerProcess(Self.arguments)
        var removed = false
        defer { if !removed { first.remove() } }
        let f = try first.choreFamily()
        let due = Self.minute(4 * 3600, after: Date())
        let firesAt = due.addingTimeInterval(-2 * 3600)
        try Self.sharedChore(first, f, "Mop", due: due, reminders: ["PT2H"])
        #expect(try first.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ana).errorCode == nil)
        #expect(try first.createAvailabilityEvent(
            ["title": "Gym", "startsAt": .string(Self.text(firesAt.addingTimeInterval(-600))), "endsAt": .string(Self.text(due.addingTimeInterval(-3600)))],
            as: f.ana).errorCode == nil)
        try first.moveClock(to: firesAt.addingTimeInterval(1))
        try first.waitForDueJobs()
        #expect(try first.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'chore.remind' AND state = 'pending'") == "1", "Ana's delayed copy")
        #expect(first.stop(signal: SIGKILL) == SIGKILL)
        let restarted = try ServerProcess(directory: first.directory, arguments: Self.arguments)
        removed = true
        defer { restarted.remove() }
        try restarted.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try restarted.waitForDueJobs()
        #expect(try Self.outcomes(restarted, of: f.ana) == ["Mop DELAYED BUSY \(String(Self.text(firesAt).prefix(16)))"])
        #expect(try Self.outcomes(restarted, of: f.ben) == ["Mop DELIVERED - -"])
        #expect(try restarted.databaseColumn(
            "SELECT CAST(count(*) AS TEXT) FROM notifications GROUP BY user_id, dedupe_key") == ["1", "1"])
    }
}
