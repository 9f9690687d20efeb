import Foundation
import GraphQL
import TestPython
import Testing

/// Reminders and notifications through the binary (issue 18: FR-49 – FR-53, FR-32, FR-33), named
/// by requirement: reminders set on a chore and fired once per member at each offset with the test
/// clock (no sleeps), exactly once across a lost job completion, `kill -9` and a restart, quiet
/// hours, the live `notifications` stream with a claim's withdrawal and a release's new notice, email,
/// and the notices of chores assigned and changed.
@Suite struct ReminderTests {
    /// The server's arguments: the test clock and jobs endpoints, a short job lease, and access
    /// tokens that outlive the hours the tests move the clock forward.
    private static let arguments = ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"]

    /// A whole minute `seconds` after `start`.
    private static func minute(_ seconds: Double, after start: Date) -> Date {
        Date(timeIntervalSince1970: ((start.timeIntervalSince1970 + seconds) / 60).rounded(.down) * 60)
    }

    /// RFC 3339 of `date`.
    private static func text(_ date: Date) -> JSON {
        .string(ISO8601DateFormatter().string(from: date))
    }

    /// The reminders' `before` values of `chore`.
    private static func reminders(_ chore: JSON?) -> [String] {
        guard case .array(let list)? = chore?["reminders"] else { return [] }
        return list.compactMap { $0["before"]?.stringValue }
    }

    /// Creates a `SINGLE_ACTION` chore of the family's household (every adult eligible: Ana and Ben)
    /// due once at `due` with `reminders`; returns its id and its instance's.
    private static func sharedChore(
        _ server: ServerProcess, _ f: ServerProcess.ChoreFamily, _ title: String, due: Date, reminders: [String]
    ) throws -> (id: String, instance: String) {
        let created = try server.graphQL(
            "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id reminders { before isAtDueTime } } } }",
            variables: ServerProcess.input([
                "householdId": .string(f.householdID), "title": .string(title), "schedule": ["once": text(due)],
                "reminders": .array(reminders.map { ["before": .string($0)] }),
            ]), token: f.ana.token)
        let chore = try #require(created.data?["createChore"]?["chore"], "\(created.json)")
        let id = try #require(chore["id"]?.stringValue)
        return (id, try #require(try server.storedInstanceIDs(of: id).first))
    }

    @Test func FR_49_FR_50_FR_51_remindersFireOncePerEligibleMemberAtEachOffsetAndFollowAnEdit() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let now = Date()
        let due = Self.minute(3 * 3600, after: now)
        let created = try server.graphQL(
            "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id reminders { before isAtDueTime } } } }",
            variables: ServerProcess.input([
                "householdId": .string(f.householdID), "title": "Bins out", "schedule": ["once": Self.text(due)],
                "reminders": [["before": "PT30M"], ["before": "PT0S"], ["before": "PT1H"], ["before": "PT30M"], ["before": "P1D"]],
            ]), token: f.ana.token)
        let chore = try #require(created.data?["createChore"]?["chore"], "\(created.json)")
        #expect(Self.reminders(chore) == ["PT0S", "PT30M", "PT1H", "P1D"], "ascending, repeats once: \(chore)")
        #expect(chore["reminders"]?[0]?["isAtDueTime"] == true)
        let choreID = try #require(chore["id"]?.stringValue)
        // P1D before a chore due in 3 hours has passed: not planned.
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'chore.remind'") == "3")

        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        #expect(try server.noticeLines(of: f.ana) == ["REMINDER Bins out: Due in 1 hour."])
        #expect(try server.noticeLines(of: f.ben) == ["REMINDER Bins out: Due in 1 hour."], "every eligible member at once (FR-51)")
        #expect(try server.noticeLines(of: f.kim).isEmpty, "a child is not eligible for a SINGLE_ACTION chore without a rule")
        let notice = try #require(try server.notifications(of: f.ben).first)
        let instance = try #require(try server.storedInstanceIDs(of: choreID).first)
        #expect(notice["choreInstanceId"]?.stringValue == instance && notice["deepLink"]?.stringValue == "hearth://chore/\(instance)")
        let dueText = try #require(Self.text(due).stringValue).dropLast()
        #expect(notice["actions"] == ["CLAIM"] && notice["dueAt"]?.stringValue?.hasPrefix(dueText) == true, "\(notice)")
        #expect(notice["tag"]?.stringValue?.count == 32)

        // An edit replaces the offsets: PT30M goes (its job does nothing), PT10M comes.
        let edited = try server.graphQL(
            "mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { reminders { before } } } }",
            variables: ServerProcess.input(["choreId": .string(choreID), "reminders": [["before": "PT10M"], ["before": "PT0S"]]]), token: f.ana.token)
        #expect(Self.reminders(edited.data?["updateChore"]?["chore"]) == ["PT0S", "PT10M"], "\(edited.json)")
        try server.moveClock(to: due.addingTimeInterval(-600 + 1))
        try server.waitForDueJobs()
        try server.moveClock(to: due.addingTimeInterval(1))
        try server.waitForDueJobs()
        let expected = ["REMINDER Bins out: Due in 1 hour.", "REMINDER Bins out: Due in 10 minutes.", "REMINDER Bins out: Due now."]
        #expect(try server.noticeLines(of: f.ana) == expected)
        #expect(try server.noticeLines(of: f.ben) == expected)

        // Read, and found by node.
        let id = try #require(notice["id"]?.stringValue)
        let read = try server.graphQL(
            "mutation($input: MarkNotificationReadInput!) { markNotificationRead(input: $input) { notification { id readAt } clientMutationId } }",
            variables: ServerProcess.input(["notificationId": .string(id), "clientMutationId": "read-1"]), token: f.ben.token)
        #expect(read.data?["markNotificationRead"]?["notification"]?["readAt"]?.stringValue != nil, "\(read.json)")
        let node = try server.graphQL("query($id: ID!) { node(id: $id) { ... on Notification { id kind } } }", variables: ["id": .string(id)], token: f.ben.token)
        #expect(node.data?["node"]?["kind"] == "REMINDER", "\(node.json)")
        let others = try server.graphQL("query($id: ID!) { node(id: $id) { id } }", variables: ["id": .string(id)], token: f.ana.token)
        #expect(others.data?["node"] == .null, "someone else's notification is not found")
        let notMine = try server.graphQL(
            "mutation($input: MarkNotificationReadInput!) { markNotificationRead(input: $input) { notification { id } } }",
            variables: ServerProcess.input(["notificationId": .string(id)]), token: f.ana.token)
        #expect(notMine.errorCode == "NOT_FOUND")
    }

    @Test func FR_49_reminderLimitsAndMalformedOffsetsAreRefusedAtTheirEdge() throws {
        let server = try ServerProcess(Self.arguments + ["--max-reminders-per-chore", "2", "--max-reminder-offset-days", "2"])
        defer { server.remove() }
        let f = try server.choreFamily()
        func create(_ reminders: [String]) throws -> ServerProcess.GraphQLResponse {
            try server.createChore([
                "householdId": .string(f.householdID), "title": "Plants", "schedule": ["once": "2036-03-01T09:00:00Z"],
                "reminders": .array(reminders.map { ["before": .string($0)] }),
            ], as: f.ana)
        }
        #expect(try create(["PT0S", "P2D"]).errorCode == nil, "two, the furthest two days before: the edge")
        let tooMany = try create(["PT0S", "PT5M", "PT10M"])
        #expect(tooMany.errorCode == "BAD_USER_INPUT" && tooMany.errorField == "input.reminders", "\(tooMany.json)")
        let tooFar = try create(["P2DT1M"])
        #expect(tooFar.errorCode == "BAD_USER_INPUT" && tooFar.errorField == "input.reminders[0].before", "\(tooFar.json)")
        for malformed in ["P1M", "PT30", "30M", "PT1.5H", "PT30S"] {
            #expect(try create([malformed]).errorCode == "BAD_USER_INPUT", "\(malformed)")
        }
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chores") == "1", "bad input changes nothing")
    }

    @Test func FR_49_aReminderIsDeliveredExactlyOncePerKeyAcrossALostCompletionKill9AndARestart() throws {
        let first = try ServerProcess(Self.arguments)
        var removed = false
        defer { if !removed { first.remove() } }
        let f = try first.choreFamily()
        let now = Date()
        let due = Self.minute(2 * 3600, after: now)
        let chore = try Self.sharedChore(first, f, "Dishes", due: due, reminders: ["PT1H", "PT0S"])
        try first.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try first.waitForDueJobs()
        #expect(try first.databaseText("SELECT CAST(count(*) AS TEXT) FROM notifications") == "2")
        // The worker "died" after the reminder committed, before the job was marked done: the job is
        // running under a lease that has expired. Then the process is killed outright.
        try first.databaseWrite(
            """
            UPDATE jobs SET state = 'running', lease_owner = 'gone', lease_expires_at = '2000-01-01T00:00:00.000Z'
            WHERE kind = 'chore.remind' AND state = 'done'
            """)
        #expect(first.stop(signal: SIGKILL) == SIGKILL)
        let restarted = try ServerProcess(directory: first.directory, arguments: Self.arguments)
        removed = true
        defer { restarted.remove() }
        try restarted.moveClock(to: due.addingTimeInterval(1))
        try restarted.waitForDueJobs()
        #expect(try restarted.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'chore.remind' AND state <> 'done'") == "0")
        #expect(try restarted.databaseText(
            "SELECT CAST(sum(attempts) AS TEXT) FROM jobs WHERE kind = 'chore.remind'").flatMap { Int($0) } ?? 0 >= 3, "the lost one ran again")
        // Exactly one notice per (instance, offset, member).
        #expect(try restarted.databaseColumn(
            "SELECT CAST(count(*) AS TEXT) FROM notifications GROUP BY user_id, dedupe_key") == ["1", "1", "1", "1"])
        #expect(try restarted.noticeLines(of: f.ana) == ["REMINDER Dishes: Due in 1 hour.", "REMINDER Dishes: Due now."])
        #expect(try restarted.noticeLines(of: f.ben) == ["REMINDER Dishes: Due in 1 hour.", "REMINDER Dishes: Due now."])
        #expect(try restarted.databaseText("SELECT CAST(count(DISTINCT instance_id) AS TEXT) FROM notifications") == "1")
        _ = chore
    }

    @Test func FR_49_noReminderForAPausedCompletedOrCancelledInstance() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = Self.minute(2 * 3600, after: Date())
        let done = try Self.sharedChore(server, f, "Done early", due: due, reminders: ["PT30M"])
        let deleted = try Self.sharedChore(server, f, "Deleted", due: due, reminders: ["PT30M"])
        let completed = try server.graphQL(
            "mutation($input: CompleteChoreInput!) { completeChore(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["instanceId": .string(done.instance)]), token: f.ben.token)
        #expect(completed.errorCode == nil, "\(completed.json)")
        let removed = try server.graphQL(
            "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["choreId": .string(deleted.id)]), token: f.ana.token)
        #expect(removed.errorCode == nil, "\(removed.json)")
        let paused = try server.chore("Ben's", in: f.householdID, as: f.ana, [
            "assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": Self.text(due)],
            "reminders": [["before": "PT30M"]],
        ])
        _ = paused
        let away = try server.startVacation(
            ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "PAUSE"], as: f.ben)
        #expect(away.errorCode == nil, "\(away.json)")
        try server.moveClock(to: due.addingTimeInterval(-1800 + 1))
        try server.waitForDueJobs()
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'chore.remind' AND state = 'done'") == "3")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM notifications WHERE kind = 'reminder'") == "0")
    }

    @Test func FR_50_aReminderInQuietHoursWaitsUntilTheyEndOrIsSkippedAndRecorded() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = Self.minute(5 * 3600, after: Date())
        func localTime(_ date: Date) -> JSON {
            let minutes = Int(date.timeIntervalSince1970) / 60 % 1440
            return .string(String(format: "%02d:%02d", minutes / 60, minutes % 60))
        }
        // Ana's quiet hours end an hour before the due time; Ben's an hour after it.
        let anas = try server.updateNotificationPreferences([
            "quietHours": ["start": localTime(due.addingTimeInterval(-3 * 3600)), "end": localTime(due.addingTimeInterval(-3600))],
            "timeZone": "UTC", "clientMutationId": "quiet-1",
        ], as: f.ana)
        #expect(anas.data?["updateNotificationPreferences"]?["notificationPreferences"]?["timeZone"] == "UTC", "\(anas.json)")
        #expect(try server.updateNotificationPreferences([
            "quietHours": ["start": localTime(due.addingTimeInterval(-3 * 3600)), "end": localTime(due.addingTimeInterval(3600))], "timeZone": "UTC",
        ], as: f.ben).errorCode == nil)
        #expect(try server.updateNotificationPreferences(["timeZone": "Mars/Olympus"], as: f.ben).errorCode == "BAD_USER_INPUT")
        _ = try Self.sharedChore(server, f, "Water", due: due, reminders: ["PT2H"])
        try server.moveClock(to: due.addingTimeInterval(-2 * 3600 + 1))
        try server.waitForDueJobs()
        #expect(try server.noticeLines(of: f.ana).isEmpty, "waiting for Ana's quiet hours to end")
        #expect(try server.noticeLines(of: f.ben) == ["REMINDER Water: Due in 2 hours. skipped"], "recorded, not delivered")
        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        #expect(try server.noticeLines(of: f.ana) == ["REMINDER Water: Due in 2 hours."], "delivered when they ended")
        let delayed = try #require(try server.notifications(of: f.ana).first)
        #expect(delayed["deliveryOutcome"] == "DELAYED" && delayed["delayReason"] == "QUIET_HOURS", "\(delayed)")
        #expect(delayed["originalTime"]?.stringValue?.hasPrefix(String(Self.text(due.addingTimeInterval(-2 * 3600)).stringValue!.prefix(16))) == true)
        #expect(try server.notifications(of: f.ben).first?["deliveryOutcome"] == "SKIPPED")
        #expect(try server.noticeLines(of: f.ben).count == 1)
    }

    @Test func FR_52_FR_53_aClaimWithdrawsTheOthersNoticesLiveAndAReleaseNotifiesThemAgain() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = Self.minute(2 * 3600, after: Date())
        let chore = try Self.sharedChore(server, f, "Hoover", due: due, reminders: ["PT1H"])
        let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """
            EVENTS = "subscription { notifications { kind tag notification { kind title choreInstanceId actions dismissedAt } } }"
            def move_clock(to):
                urllib.request.urlopen(urllib.request.Request(BASE + "/_test/clock", data=str(to).encode(), method="POST")).read()
            async def show(who, ws):
                event = (await message(ws))["payload"]["data"]["notifications"]
                notice = event["notification"]
                print(who, event["kind"], notice["kind"], notice["title"], ",".join(notice["actions"]),
                      "dismissed" if notice["dismissedAt"] else "-", len(event["tag"]))
            async def main(ana, ben, instance, at):
                ana_ws = await connected(ana)
                await subscribe_to(ana_ws, "a", EVENTS, {})
                ben_ws = await connected(ben)
                await subscribe_to(ben_ws, "b", EVENTS, {})
                await asyncio.get_running_loop().run_in_executor(None, move_clock, at)
                await show("ana", ana_ws)
                await show("ben", ben_ws)
                claim = "mutation($input: ClaimChoreInput!) { claimChore(input: $input) { clientMutationId } }"
                await call(claim, {"input": {"instanceId": instance}}, ben)
                await show("ana", ana_ws)
                release = "mutation($input: ReleaseChoreInput!) { releaseChore(input: $input) { clientMutationId } }"
                await call(release, {"input": {"instanceId": instance}}, ben)
                await show("ana", ana_ws)
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", f.ana.token, f.ben.token, chore.instance, String(due.timeIntervalSince1970 - 3600 + 1)])
        #expect(lines == [
            "ana CREATED REMINDER Hoover CLAIM - 32", "ben CREATED REMINDER Hoover CLAIM - 32",
            "ana DISMISSED REMINDER Hoover CLAIM dismissed 32",
            "ana CREATED RELEASED Hoover CLAIM - 32",
        ])
        #expect(try server.noticeLines(of: f.ana) == [
            "REMINDER Hoover: Due in 1 hour. dismissed", "RELEASED Hoover: Free again: the claim was released. Claim it if you'll do it.",
        ])
        #expect(try server.noticeLines(of: f.ben) == ["REMINDER Hoover: Due in 1 hour."], "the claimant's own stays")
    }

    @Test func FR_32_FR_33_assigneesAreToldOfANewChoreAndOfAnEditByEmailWhenTheyChoseIt() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chosen = try server.updateNotificationPreferences(["channels": ["LIVE", "EMAIL"]], as: f.ben)
        #expect(chosen.data?["updateNotificationPreferences"]?["notificationPreferences"]?["channels"] == ["LIVE", "EMAIL"], "\(chosen.json)")
        let chore = try server.chore("Laundry", in: f.householdID, as: f.ana, ["assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)]])
        let choreID = try #require(chore["id"]?.stringValue)
        #expect(try server.noticeLines(of: f.ben) == ["ASSIGNED Laundry: A new chore for you."])
        #expect(try server.noticeLines(of: f.ana).isEmpty, "not the creator, who is not assigned")
        let edited = try server.updateChore(["choreId": .string(choreID), "title": "Laundry, darks"], as: f.ana)
        #expect(edited.errorCode == nil, "\(edited.json)")
        #expect(try server.noticeLines(of: f.ben) == ["ASSIGNED Laundry: A new chore for you.", "CHANGED Laundry, darks: A chore of yours was changed: look at it again."])
        #expect(try server.notifications(of: f.ben).first?["deepLink"]?.stringValue == "hearth://chore/\(choreID)")
        #expect(try server.databaseColumn(
            "SELECT subject FROM mail_outbox WHERE recipients LIKE '%ben@example.com%' AND subject LIKE 'Laundry%' ORDER BY id")
            == ["Laundry", "Laundry, darks"], "by email, as Ben chose")
        let preferences = try server.graphQL("{ notificationPreferences { channels quietHours { start } timeZone } }", token: f.ana.token)
        #expect(preferences.data?["notificationPreferences"]?["channels"] == ["LIVE", "PUSH"], "the defaults: \(preferences.json)")
    }

    @Test func FR_21_whoeverARedistributedInstanceIsHandedToIsTold() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Beds", in: f.householdID, as: f.ana, [
            "assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": Self.text(Self.minute(2 * 3600, after: Date()))],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let instance = try #require(try server.storedInstanceIDs(of: choreID).first)
        let away = try server.startVacation(
            ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "REDISTRIBUTE"], as: f.ben)
        #expect(away.errorCode == nil, "\(away.json)")
        let holder = try #require(try server.databaseText("SELECT reassigned_to FROM chore_instances WHERE id = '\(instance)'"))
        let told = try server.databaseText(
            "SELECT m.id FROM notifications n JOIN members m ON m.user_id = n.user_id AND m.household_id = n.household_id WHERE n.body LIKE 'Handed%'")
        #expect(told == holder, "the member it was handed to, once")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM notifications WHERE body LIKE 'Handed%'") == "1")
    }
}
