import Foundation
import GraphQL
import Testing

/// Reminders across households and time through the binary (issue 18, phase 2): they follow the
/// active household (FR-11), a reminder already past when it is planned is never sent, and a chore
/// created without reminders gets the one at due time (FR-49, FR-50), with the test clock.
@Suite struct ReminderFollowUpTests {
    private static let arguments = ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"]

    @Test func FR_11_switchingTheActiveHouseholdMovesRemindersAndTellsTheUser() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        // Ben belongs to the flat (his active household, his first) and to Ana's cabin.
        let (cabin, _) = try server.createHousehold("Cabin", as: f.ana)
        _ = try server.join(f.ben, cabin, invitedBy: f.ana)
        let due = BusyReminderTests.minute(3 * 3600, after: Date())
        for (household, title) in [(f.householdID, "Flat bins"), (cabin, "Cabin wood")] {
            let created = try server.createChore([
                "householdId": .string(household), "title": .string(title), "schedule": ["once": .string(BusyReminderTests.text(due))],
                "reminders": [["before": "PT1H"], ["before": "PT0S"]],
            ], as: f.ana)
            #expect(created.errorCode == nil, "\(created.json)")
        }
        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        #expect(try server.noticeLines(of: f.ben) == ["REMINDER Flat bins: Due in 1 hour."], "only the active household's chores")

        let switched = try server.graphQL(
            MembershipTests.setActive, variables: ServerProcess.input(["householdId": .string(cabin)]), token: f.ben.token)
        #expect(switched.data?["setActiveHousehold"]?["household"]?["id"]?.stringValue == cabin, "\(switched.json)")
        #expect(try server.noticeLines(of: f.ben) == [
            "REMINDER Flat bins: Due in 1 hour. dismissed",
            "ACTIVE_HOUSEHOLD_CHANGED Cabin: Reminders of Cabin's chores come to you now. Flat's stop.",
        ], "the old household's reminder withdrawn, and Ben told")

        try server.moveClock(to: due.addingTimeInterval(1))
        try server.waitForDueJobs()
        let lines = try server.noticeLines(of: f.ben)
        #expect(lines.last == "REMINDER Cabin wood: Due now.", "\(lines)")
        #expect(!lines.contains("REMINDER Flat bins: Due now."), "the flat's reminders stopped reaching Ben")
        #expect(try server.noticeLines(of: f.ana).filter { $0.hasPrefix("REMINDER") } == [
            "REMINDER Flat bins: Due in 1 hour.", "REMINDER Flat bins: Due now.",
        ], "Ana's active household is still the flat")
    }

    @Test func FR_49_aReminderAlreadyPastWhenPlannedIsNeverSent() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = BusyReminderTests.minute(2 * 3600, after: Date())
        let created = try server.createChore([
            "householdId": .string(f.householdID), "title": "Plants", "schedule": ["once": .string(BusyReminderTests.text(due))],
            "reminders": [["before": "P1D"], ["before": "PT3H"], ["before": "PT30M"]],
        ], as: f.ana)
        #expect(created.errorCode == nil, "\(created.json)")
        try server.moveClock(to: due.addingTimeInterval(60))
        try server.waitForDueJobs()
        #expect(try server.noticeLines(of: f.ana) == ["REMINDER Plants: Due in 30 minutes."], "a day and three hours before had passed: never sent")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM notifications WHERE body LIKE '%1 day%' OR body LIKE '%3 hours%'") == "0")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'chore.remind'") == "1", "only the one ahead was planned")
    }

    @Test func FR_49_FR_50_aChoreCreatedWithoutRemindersIsRemindedAtItsDueTimeUnlessTurnedOff() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = BusyReminderTests.minute(2 * 3600, after: Date())
        func chore(_ title: String, _ extra: [String: JSON]) throws -> JSON? {
            let created = try server.graphQL(
                "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { reminders { before isAtDueTime } } } }",
                variables: ServerProcess.input([
                    "householdId": .string(f.householdID), "title": .string(title), "schedule": ["once": .string(BusyReminderTests.text(due))],
                ].merging(extra) { _, new in new }), token: f.ana.token)
            return created.data?["createChore"]?["chore"]?["reminders"]
        }
        #expect(try chore("Default", [:]) == [["before": "PT0S", "isAtDueTime": true]])
        #expect(try chore("Silent", ["reminders": []]) == [])
        try server.moveClock(to: due.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try server.noticeLines(of: f.ben) == ["REMINDER Default: Due now."])
    }
}
