import Foundation
import GraphQL
import TestPython
import Testing

/// Leaderboards and scoreboards through the binary (FR-56 – FR-58): what counts, in which period of the
/// household's time zone, ranks with ties, approvals, departures, the personal scoreboard, and boards
/// pushed live to real graphql-transport-ws clients (Python `websockets`).
@Suite struct LeaderboardTests {
    /// A chore of the family's household for `assignee`, worth `tokens`, with `extra` input fields;
    /// returns its instance's id (the kit's one-off chores are due 2036-03-01T09:00:00Z).
    private func chore(
        _ title: String, for assignee: String, tokens: Int, _ family: ServerProcess.ChoreFamily, _ server: ServerProcess,
        _ extra: [String: JSON] = [:]
    ) throws -> String {
        var input: [String: JSON] = ["assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(assignee)], "tokens": .int(tokens)]
        input.merge(extra) { _, new in new }
        let created = try server.chore(title, in: family.householdID, as: family.ana, input)
        return try ServerProcess.derivedInstanceID(choreID: try #require(created["id"]?.stringValue), dueAt: "2036-03-01T09:00:00Z")
    }

    /// `completeChore` that must succeed; returns the completion's id.
    @discardableResult
    private func complete(_ instanceID: String, as person: ServerProcess.Person, _ server: ServerProcess) throws -> String {
        let done = try server.completeChore(instanceID, as: person)
        return try #require(done.data?["completeChore"]?["completion"]?["id"]?.stringValue, "\(done.json)")
    }

    private static func instant(_ text: String?) -> Date? {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return text.flatMap { parser.date(from: $0) }
    }

    /// FR-56's period edge: in a household in Los Angeles, a completion at 23:59 local on a month's last day
    /// counts in that month (already the next in UTC), one at 00:01 in the next; the board's bounds are the
    /// local midnights. The server's clock is moved there by the test endpoint, no sleeping.
    @Test func FR56_aCompletionAt2359OnAMonthsLastDayCountsInThatMonthAndOneAt0001InTheNext() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let nextMonth = try #require(calendar.date(from: calendar.dateComponents([.year, .month], from: Date().addingTimeInterval(32 * 86_400))))
        let monthAfter = try #require(calendar.date(byAdding: .month, value: 1, to: nextMonth))
        let lastMinute = monthAfter.addingTimeInterval(-60)

        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        try server.moveClock(to: lastMinute.addingTimeInterval(-600))
        let family = try server.choreFamily()
        let zone = try server.graphQL(
            "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { timeZone firstWeekday } } }",
            variables: ServerProcess.input(["householdId": .string(family.householdID), "timeZone": "America/Los_Angeles"]), token: family.ana.token)
        #expect(zone.data?["updateHousehold"]?["household"] == ["timeZone": "America/Los_Angeles", "firstWeekday": "MONDAY"], "\(zone.json)")
        let late = try chore("Late dishes", for: family.benMemberID, tokens: 3, family, server)
        let early = try chore("Early bins", for: family.benMemberID, tokens: 3, family, server)

        let at2359 = try server.moveClock(to: lastMinute)
        #expect(calendar.component(.day, from: at2359.addingTimeInterval(120)) == 1)
        try complete(late, as: family.ben, server)
        #expect(try server.board(family.householdID, period: "MONTH", as: family.ana).first == "ben 1 1 3 100.00")
        let thisMonth = try server.leaderboard(family.householdID, period: "MONTH", as: family.ana).data?["leaderboard"]
        #expect(Self.instant(thisMonth?["periodStart"]?.stringValue) == nextMonth && Self.instant(thisMonth?["periodEnd"]?.stringValue) == monthAfter)

        try server.moveClock(to: lastMinute.addingTimeInterval(120))
        #expect(try server.board(family.householdID, period: "MONTH", as: family.ana).allSatisfy { $0.hasSuffix(" 0 0 0.00") })
        try complete(early, as: family.ben, server)
        #expect(try server.board(family.householdID, period: "MONTH", as: family.ana).first == "ben 1 1 3 100.00")
        #expect(try server.board(family.householdID, period: "ALL_TIME", as: family.ana).first == "ben 1 2 6 100.00")
        let newMonth = try server.leaderboard(family.householdID, period: "MONTH", as: family.kim).data?["leaderboard"]
        #expect(Self.instant(newMonth?["periodStart"]?.stringValue) == monthAfter && newMonth?["timeZone"] == "America/Los_Angeles")
    }

    /// FR-58 at a period's end: a live week board starts over at local midnight on the household's first
    /// weekday with nobody completing anything. The completion schedules the week's end through the durable
    /// scheduler; moving the server's clock past it (test endpoint, no sleeping) runs that job, and the
    /// subscribed member receives the new week's empty board, dated from that midnight in Los Angeles.
    @Test func FR58_aLiveWeekBoardStartsOverAtLocalMidnightWhenTheWeekEnds() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        calendar.firstWeekday = 2
        let nextWeek = try #require(calendar.dateInterval(of: .weekOfYear, for: Date().addingTimeInterval(8 * 86_400))?.start)

        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        try server.moveClock(to: nextWeek.addingTimeInterval(-600))
        let family = try server.choreFamily()
        let zone = try server.graphQL(
            "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { timeZone } } }",
            variables: ServerProcess.input(["householdId": .string(family.householdID), "timeZone": "America/Los_Angeles"]), token: family.ana.token)
        #expect(zone.data?["updateHousehold"]?["household"]?["timeZone"] == "America/Los_Angeles", "\(zone.json)")
        let dishes = try chore("Dishes", for: family.benMemberID, tokens: 2, family, server)
        let lines = try TestPython.runScript(HouseholdEventsTests.helpers + """

            EVENTS = ("subscription($id: ID!) { leaderboardChanged(householdId: $id) { "
                      "periodStart totalCompletions entries { member { displayName } completionCount } } }")
            def describe_board(reply):
                if reply["type"] != "next":
                    return reply["type"]
                board = reply["payload"]["data"]["leaderboardChanged"]
                lines = " ".join(f"{e['member']['displayName']}:{e['completionCount']}" for e in board["entries"])
                return f"{board['periodStart']} {board['totalCompletions']} {lines}"
            async def main(ana, ben, flat, dishes, midnight):
                ana_ws = await connected(ana)
                await subscribe(ana_ws, "a", flat)
                await call("mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }",
                           {"input": {"instanceId": dishes}}, ben)
                print(describe_board(await message(ana_ws)))
                await asyncio.get_running_loop().run_in_executor(None, lambda: urllib.request.urlopen(
                    urllib.request.Request(BASE + "/_test/clock", data=str(float(midnight) + 1).encode())).read())
                print(describe_board(await message(ana_ws)))
            asyncio.run(main(*sys.argv[2:]))
            """, [
                "http://127.0.0.1:\(server.port)", family.ana.token, family.ben.token, family.householdID, dishes,
                String(nextWeek.timeIntervalSince1970),
            ])
        let lastWeek = ISO8601DateFormatter().string(from: try #require(calendar.date(byAdding: .day, value: -7, to: nextWeek)))
        let newWeek = ISO8601DateFormatter().string(from: nextWeek)
        #expect(lines.count == 2 && lines.first?.hasPrefix(lastWeek.dropLast()) == true && lines.first?.hasSuffix("1 ben:1 Kim:0 ana:0") == true, "\(lines)")
        #expect(lines.last?.hasPrefix(newWeek.dropLast()) == true && lines.last?.hasSuffix(" 0 Kim:0 ana:0 ben:0") == true, "\(lines)")
    }

    @Test func FR56_equalCountsRankAlikeApprovalsDecideAndMembersWhoLeftLeaveTheBoard() throws {
        try ServerProcess.withChoreFamily { server, family in
            let flat = family.householdID
            let bens = try chore("Dishes", for: family.benMemberID, tokens: 2, family, server)
            let kims = try chore("Room", for: family.kimMemberID, tokens: 4, family, server, ["requiresApproval": true])
            let kimsRejected = try chore("Desk", for: family.kimMemberID, tokens: 4, family, server, ["requiresApproval": true])
            try complete(bens, as: family.ben, server)
            let waiting = try complete(kims, as: family.kim, server)
            let refused = try complete(kimsRejected, as: family.kim, server)
            // Waiting for approval counts nothing yet; the other two tie at zero, ranked alike.
            let before = try server.board(flat, as: family.kim)
            #expect(before.first == "ben 1 1 2 100.00" && Set(before.dropFirst()) == ["ana 2 0 0 0.00", "Kim 2 0 0 0.00"], "\(before)")

            let approve = "mutation($input: ApproveCompletionInput!) { approveCompletion(input: $input) { completion { status } } }"
            let reject = "mutation($input: RejectCompletionInput!) { rejectCompletion(input: $input) { completion { status } } }"
            _ = try server.graphQL(approve, variables: ServerProcess.input(["completionId": .string(waiting)]), token: family.ana.token)
            _ = try server.graphQL(reject, variables: ServerProcess.input(["completionId": .string(refused)]), token: family.ana.token)
            // Equal counts share first place (more tokens listed first), and third comes next: 1, 1, 3.
            #expect(try server.board(flat, as: family.ben) == ["Kim 1 1 4 50.00", "ben 1 1 2 50.00", "ana 3 0 0 0.00"])
            #expect(try server.board(flat, period: "ALL_TIME", as: family.ana) == ["Kim 1 1 4 50.00", "ben 1 1 2 50.00", "ana 3 0 0 0.00"])

            let left = try server.graphQL(
                "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }",
                variables: ServerProcess.input(["householdId": .string(flat), "incompleteTasks": "UNASSIGN"]), token: family.ben.token)
            #expect(left.data?["leaveHousehold"]?["leftHouseholdId"] == .string(flat), "\(left.json)")
            #expect(try server.board(flat, as: family.ana) == ["Kim 1 1 4 100.00", "ana 2 0 0 0.00"])
            #expect(try server.leaderboard(flat, as: family.ben).errorCode == "NOT_FOUND")
            // Ben's completion is history: it is still his, on the chore's record.
            let history = try server.graphQL(
                "query($id: ID!) { node(id: $id) { ... on Member { status completions(first: 5) { edges { node { id } } } } } }",
                variables: ["id": .string(family.benMemberID)], token: family.ana.token)
            #expect(history.data?["node"]?["status"] == "DEPARTED" && history.data?["node"]?["completions"]?["edges"]?[0] != nil, "\(history.json)")
        }
    }

    @Test func FR57_aPersonalCompletionCountsOnItsOwnersScoreboardAloneAndNeverOnTheHouseholds() throws {
        try ServerProcess.withChoreFamily { server, family in
            let stretch = try server.chore("Stretch", in: nil, as: family.ben)
            let instance = try ServerProcess.derivedInstanceID(choreID: try #require(stretch["id"]?.stringValue), dueAt: "2036-03-01T09:00:00Z")
            try complete(instance, as: family.ben, server)
            let scoreboard = "{ me { scoreboard { period completionCount timeZone } month: scoreboard(period: ALL_TIME) { completionCount periodStart } } }"
            let bens = try server.graphQL(scoreboard, token: family.ben.token)
            #expect(bens.data?["me"] == [
                "scoreboard": ["period": "WEEK", "completionCount": 1, "timeZone": "UTC"], "month": ["completionCount": 1, "periodStart": nil],
            ], "\(bens.json)")
            let anas = try server.graphQL(scoreboard, token: family.ana.token)
            #expect(anas.data?["me"]?["scoreboard"]?["completionCount"] == 0)
            #expect(try server.board(family.householdID, period: "ALL_TIME", as: family.ana).allSatisfy { $0.hasSuffix(" 0 0 0.00") })
        }
    }

    /// FR-58, live: two members subscribed with a real graphql-transport-ws client both receive the new board
    /// when one of them completes a chore; the one who leaves stops at once, the other sees them leave the board.
    @Test func FR58_aCompletionUpdatesBothMembersLeaderboardsAtOnce() throws {
        try ServerProcess.withChoreFamily(["--test-endpoints"]) { server, family in
            let dishes = try chore("Dishes", for: family.benMemberID, tokens: 2, family, server)
            let lines = try TestPython.runScript(ServerProcess.leaderboardScript + """

                async def main(ana, ben, flat, dishes):
                    ana_ws, ben_ws = await subscribed([ana, ben], BOARD, {"id": flat})
                    await call("mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }",
                               {"input": {"instanceId": dishes}}, ben)
                    print(describe_board("ana", await message(ana_ws)))
                    print(describe_board("ben", await message(ben_ws)))
                    await call("mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }",
                               {"input": {"householdId": flat, "incompleteTasks": "UNASSIGN"}}, ben)
                    print(describe_board("ben", await message(ben_ws)))
                    print(describe_board("ana", await message(ana_ws)))
                asyncio.run(main(*sys.argv[2:]))
                """, ["http://127.0.0.1:\(server.port)", family.ana.token, family.ben.token, family.householdID, dishes])
            let board = "1 ben:1:1:2 Kim:2:0:0 ana:2:0:0"
            #expect(lines == ["ana \(board)", "ben \(board)", "ben complete", "ana 0 Kim:1:0:0 ana:1:0:0"])
        }
    }
}
