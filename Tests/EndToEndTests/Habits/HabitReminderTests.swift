import Foundation
import GraphQL
import Testing

/// Habit reminders through the binary (issue 18), with the test clock: a habit's reminder time
/// fires on its planned days in the owner's time zone, not on the days between, not on a day the
/// habit is already done, and not once the reminder is removed or the habit deleted; it follows the
/// owner's time zone and busy times; only the owner sees the time.
@Suite struct HabitReminderTests {
    private static let arguments = ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"]

    /// The `Weekday` name of `date`'s day in UTC.
    private static func weekday(_ date: Date) -> JSON {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let names = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"]
        return .string(names[calendar.component(.weekday, from: date) - 1])
    }

    /// `YYYY-MM-DD` of `date` in UTC.
    private static func day(_ date: Date) -> String {
        String(BusyReminderTests.text(date).prefix(10))
    }

    /// `person`'s habit reminders as `title outcome`, oldest first.
    private static func reminders(_ server: ServerProcess, of person: ServerProcess.Person) throws -> [String] {
        try server.notifications(of: person).reversed().filter { $0["kind"] == "HABIT_REMINDER" }.map {
            "\($0["title"]?.stringValue ?? "?") \($0["deliveryOutcome"]?.stringValue ?? "?") \($0["deepLink"]?.stringValue ?? "-")"
        }
    }

    @Test func aHabitReminderFiresOnPlannedDaysOnlyAndNotWhenTheHabitIsDone() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        var ana = try server.person("ana")
        let ben = try server.person("ben")
        // Planned on the reminder's day and two days later, not the day between (UTC: Ana has no zone).
        let first = BusyReminderTests.minute(2 * 3600, after: Date())
        let third = first.addingTimeInterval(2 * 86_400)
        let minutes = Int(first.timeIntervalSince1970) / 60 % 1440
        let time = String(format: "%02d:%02d", minutes / 60, minutes % 60)
        let created = try server.graphQL(
            "mutation($input: CreateHabitInput!) { createHabit(input: $input) { habit { id reminderTime } } }",
            variables: ServerProcess.input([
                "title": "Stretch", "startsOn": .string(Self.day(first.addingTimeInterval(-86_400))),
                "plan": [Self.weekday(first), Self.weekday(third)], "reminderTime": .string(time), "visibility": "FOLLOWERS",
            ]), token: ana.token)
        let habit = try #require(created.data?["createHabit"]?["habit"], "\(created.json)")
        let habitID = try #require(habit["id"]?.stringValue)
        #expect(habit["reminderTime"]?.stringValue == time)
        try server.acceptedFollow(of: ana, by: ben)
        let seen = try server.graphQL("query($id: ID!) { habit(id: $id) { title reminderTime } }", variables: ["id": .string(habitID)], token: ben.token)
        #expect(seen.data?["habit"]?["title"] == "Stretch" && seen.data?["habit"]?["reminderTime"] == .null, "a follower sees the habit, not the time: \(seen.json)")

        try server.moveClock(to: first.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana) == ["Stretch DELIVERED hearth://habit/\(habitID)"], "on a planned day")
        // The day between is not planned: nothing then.
        try server.moveClock(to: BusyReminderTests.text(first.addingTimeInterval(86_400 + 1)), signingIn: &ana)
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana).count == 1, "not on an unplanned day")
        // The third day: done before the reminder time, so no reminder.
        try server.moveClock(to: BusyReminderTests.text(third.addingTimeInterval(-60)), signingIn: &ana)
        let done = try server.recordHabitEvent(["habitId": .string(habitID), "occurredOn": .string(Self.day(third))], as: ana)
        #expect(done.errorCode == nil, "\(done.json)")
        try server.moveClock(to: third.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana).count == 1, "not on a day it is done")
        // A week after the first: planned, but the reminder was removed.
        let removed = try server.graphQL(
            "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { habit { reminderTime } } }",
            variables: ServerProcess.input(["habitId": .string(habitID), "reminderTime": .null]), token: ana.token)
        #expect(removed.data?["updateHabit"]?["habit"]?["reminderTime"] == .null, "\(removed.json)")
        try server.moveClock(to: BusyReminderTests.text(first.addingTimeInterval(7 * 86_400 + 1)), signingIn: &ana)
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana).count == 1, "no reminder once removed")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'habit.remind' AND state <> 'done'") == "0")
    }

    @Test func aChangedReminderTimeIsPlannedAgainTheOldTimeDoesNothingAndADeletedHabitGetsNone() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let later = BusyReminderTests.minute(3 * 3600, after: Date())
        func localTime(_ date: Date) -> JSON {
            let minutes = Int(date.timeIntervalSince1970) / 60 % 1440
            return .string(String(format: "%02d:%02d", minutes / 60, minutes % 60))
        }
        let every: JSON = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
        let habitID = try server.habit("Read", as: ana, [
            "startsOn": .string(Self.day(later.addingTimeInterval(-86_400))), "plan": every, "reminderTime": localTime(later.addingTimeInterval(3600)),
        ])
        // A deleted habit gets none.
        let gone = try server.habit("Floss", as: ana, [
            "startsOn": .string(Self.day(later.addingTimeInterval(-86_400))), "plan": every, "reminderTime": localTime(later),
        ])
        let deleted = try server.graphQL(
            "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { deletedHabitId } }",
            variables: ServerProcess.input(["habitId": .string(gone)]), token: ana.token)
        #expect(deleted.errorCode == nil, "\(deleted.json)")
        // Moved an hour earlier: the first job is stale, the new time fires.
        let moved = try server.graphQL(
            "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { habit { reminderTime } } }",
            variables: ServerProcess.input(["habitId": .string(habitID), "reminderTime": localTime(later)]), token: ana.token)
        #expect(moved.errorCode == nil, "\(moved.json)")
        try server.moveClock(to: later.addingTimeInterval(3600 + 1))
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana) == ["Read DELIVERED hearth://habit/\(habitID)"], "once, at the new time; none of the deleted habit")
        #expect(try server.databaseText(
            "SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'habit.remind' AND state <> 'done'") == "1", "tomorrow's planned")
    }

    @Test func FR_50A_aHabitReminderFollowsItsOwnersNewTimeZoneAndWaitsOutABusyPeriod() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        // In Tokyo (UTC+9, no daylight saving) between 07:00 and 20:00, at least three hours from now, so
        // the busy period (to half an hour after) ends well before the habit's day does at Tokyo's midnight.
        let soonest = BusyReminderTests.minute(3 * 3600, after: Date())
        let hoursToMorning = (7 - (Int(soonest.timeIntervalSince1970) / 3600 + 9) % 24 + 24) % 24
        let fires = hoursToMorning > 11 ? soonest : soonest.addingTimeInterval(Double(hoursToMorning) * 3600)
        let tokyoMinutes = (Int(fires.timeIntervalSince1970) / 60 + 9 * 60) % 1440
        let every: JSON = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
        let habitID = try server.habit("Walk", as: ana, [
            "startsOn": .string(Self.day(fires.addingTimeInterval(-2 * 86_400))), "plan": every,
            "reminderTime": .string(String(format: "%02d:%02d", tokyoMinutes / 60, tokyoMinutes % 60)),
        ])
        // Read in UTC first; Ana's new zone plans it again at the Tokyo time.
        try server.setTimeZone("Asia/Tokyo", of: ana)
        let planned = try server.databaseText(
            "SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'habit.remind' AND state = 'pending' AND due_at = '\(BusyReminderTests.text(fires).dropLast()).000Z'")
        #expect(planned == "1", "a job at the Tokyo time")
        #expect(try server.updateNotificationPreferences(["avoidBusyTimes": true], as: ana).errorCode == nil)
        let busy = try server.createAvailabilityEvent([
            "title": "Train", "startsAt": .string(BusyReminderTests.text(fires.addingTimeInterval(-600))),
            "endsAt": .string(BusyReminderTests.text(fires.addingTimeInterval(1800))),
        ], as: ana)
        #expect(busy.errorCode == nil, "\(busy.json)")
        try server.moveClock(to: fires.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana).isEmpty, "busy on the train")
        try server.moveClock(to: fires.addingTimeInterval(1800 + 1))
        try server.waitForDueJobs()
        #expect(try Self.reminders(server, of: ana) == ["Walk DELAYED hearth://habit/\(habitID)"])
        #expect(try server.notifications(of: ana).first?["delayReason"] == "BUSY")
    }
}
