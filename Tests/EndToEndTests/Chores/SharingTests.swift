import Foundation
import GraphQL
import TestPython
import Testing

/// Sharing personal chores through the binary (issue 15: FR-40 – FR-42), named by requirement: a
/// share with an account is an invitation it accepts, then read-only; a tag share covers chores
/// tagged later; a household's share reaches members who join later and not those who leave;
/// revoking cuts a live `sharedChoreEvents` stream at once; every write of a recipient is refused.
@Suite struct SharingTests {
    /// `seconds` from now as RFC 3339 (whole seconds, UTC).
    static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down)))
    }

    /// A personal chore of `person` due in an hour (so its instance is planned), and that instance's id.
    static func personalChore(_ server: ServerProcess, _ title: String, of person: ServerProcess.Person, _ extra: [String: JSON] = [:]) throws -> (
        choreID: String, instanceID: String
    ) {
        let chore = try server.chore(title, in: nil, as: person, ["schedule": ["once": .string(Self.time(3600))]].merging(extra) { _, new in new })
        let choreID = try #require(chore["id"]?.stringValue)
        let listed = try server.myInstances(as: person).first { $0["chore"]?["id"]?.stringValue == choreID }
        return (choreID, try #require(listed?["id"]?.stringValue, "no instance of \(title)"))
    }

    @Test func FR40_aShareWithAnAccountIsAnInvitationThenItsChoresInstancesAndCompletionsAreReadOnly() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (runID, runInstance) = try Self.personalChore(server, "Run 5 km", of: f.ana)
        let diaryID = try #require(try server.chore("Diary", in: nil, as: f.ana)["id"]?.stringValue)
        let tagID = try server.tag("Fitness", in: nil, as: f.ana)
        let share = try server.share(["choreIds": [.string(runID)]], with: ["email": .string(f.ben.email)], as: f.ana)
        let shareID = try #require(share["id"]?.stringValue)
        #expect(share["status"] == "PENDING" && share["recipientEmail"]?.stringValue == f.ben.email)
        // Before Ben accepts he sees the invitation, not the chore.
        let pending = try server.shares("pendingChoreShares", as: f.ben)
        #expect(pending.map { $0["id"] } == [.string(shareID)] && pending.first?["recipientEmail"] == .null)
        #expect(try server.sharedTitles(as: f.ben).isEmpty && server.choreNode(runID, as: f.ben) == nil)
        #expect(try server.answerShare("acceptShare", shareID, as: f.cara).errorCode == "NOT_FOUND")
        #expect(try server.answerShare("acceptShare", shareID, as: f.ben).errorCode == nil)

        _ = try server.completeChore(runInstance, as: f.ana)
        let received = try #require(try server.shares("sharedWithMe", as: f.ben).first)
        #expect(received["ownerName"] == "ana" && received["viewerIsOwner"] == false && received["status"] == "ACCEPTED")
        let listed = try #require(received["chores"]?["edges"]?[0]?["node"])
        #expect(listed["title"] == "Run 5 km" && listed["viewerCanEdit"] == false && listed["tags"] == [])
        // `node` answers the shared chore read-only with its instances' progress, and nothing else of Ana's.
        let chore = try #require(try server.choreNode(runID, as: f.ben))
        #expect(chore["viewerCanEdit"] == false && chore["tags"] == [])
        let instance = try #require(chore["instances"]?["edges"]?[0]?["node"])
        #expect(instance["id"]?.stringValue == runInstance && instance["status"] == "COMPLETED" && instance["completedAt"] != .null)
        #expect(instance["completions"]?[0]?["completedAt"] == instance["completedAt"])
        #expect(try server.choreNode(diaryID, as: f.ben) == nil && server.choreNode(tagID, as: f.ben) == nil)
        #expect(try server.choreNode(runID, as: f.cara) == nil)
        // Every write Ben tries is refused, naming the rule.
        let writes = [
            try server.updateChore(["choreId": .string(runID), "title": "Mine"], as: f.ben),
            try server.graphQL(
                "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { deletedChoreId } }",
                variables: ServerProcess.input(["choreId": .string(runID)]), token: f.ben.token),
            try server.completeChore(runInstance, as: f.ben),
            try server.uncompleteChore(runInstance, as: f.ben),
            try server.claimChore(runInstance, as: f.ben),
        ]
        for write in writes {
            #expect(write.errorCode == "FORBIDDEN" && write.errorReason == "SHARED_READ_ONLY", "\(write.json)")
        }
        #expect(try server.choreNode(runID, as: f.ana)?["title"] == "Run 5 km")
        #expect(try server.shares("myChoreShares", as: f.ana).first?["recipientEmail"]?.stringValue == f.ben.email)
    }

    @Test func FR40_aTagShareCoversAChoreTaggedLater() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let tagID = try server.tag("Fitness", in: nil, as: f.ana)
        _ = try server.chore("Run", in: nil, as: f.ana, ["tagIds": [.string(tagID)]])
        let swimID = try #require(try server.chore("Swim", in: nil, as: f.ana)["id"]?.stringValue)
        let share = try server.share(["tagId": .string(tagID)], with: ["email": .string(f.ben.email)], as: f.ana)
        #expect(share["tagName"] == "Fitness" && share["tag"]?["id"]?.stringValue == tagID)
        _ = try server.answerShare("acceptShare", try #require(share["id"]?.stringValue), as: f.ben)
        #expect(try server.sharedTitles(as: f.ben) == [["Run"]])
        // Ben sees the tag's name, not the tag (Ana's tags stay hers); Ana sees who accepted.
        let received = try server.shares("sharedWithMe", as: f.ben).first
        #expect(received?["tagName"] == "Fitness" && received?["tag"] == .null)
        #expect(try server.shares("myChoreShares", as: f.ana).first?["recipientName"] == "ben")
        #expect(try server.updateChore(["choreId": .string(swimID), "tagIds": [.string(tagID)]], as: f.ana).errorCode == nil)
        #expect(try server.sharedTitles(as: f.ben) == [["Run", "Swim"]])
        #expect(try server.choreNode(swimID, as: f.ben)?["title"] == "Swim")
    }

    @Test func FR41_aHouseholdShareIsSeenByAMemberWhoJoinsLaterAndLostByOneWhoLeaves() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (runID, _) = try Self.personalChore(server, "Run", of: f.ana)
        let share = try server.share(["choreIds": [.string(runID)]], with: ["householdId": .string(f.householdID)], as: f.ana)
        #expect(share["status"] == "ACCEPTED" && share["recipientHousehold"]?["id"]?.stringValue == f.householdID)
        #expect(try server.sharedTitles(as: f.ben) == [["Run"]] && server.sharedTitles(as: f.kim) == [["Run"]])
        #expect(try server.sharedTitles(as: f.cara).isEmpty && server.sharedTitles(as: f.ana).isEmpty)
        let dan = try server.person("dan")
        #expect(try server.sharedTitles(as: dan).isEmpty)
        _ = try server.join(dan, f.householdID, invitedBy: f.ana)
        #expect(try server.sharedTitles(as: dan) == [["Run"]] && server.choreNode(runID, as: dan) != nil)
        let left = try server.graphQL(
            "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "incompleteTasks": "UNASSIGN"]), token: f.ben.token)
        #expect(left.errorCode == nil, "\(left.json)")
        #expect(try server.sharedTitles(as: f.ben).isEmpty && server.choreNode(runID, as: f.ben) == nil)
        #expect(try server.sharedTitles(as: dan) == [["Run"]])
    }

    @Test func FR42_revokingCutsARecipientsLiveSubscriptionAtOnceAndLeavingEndsAMembersOne() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let f = try server.choreFamily()
        let (runID, runInstance) = try Self.personalChore(server, "Run", of: f.ana)
        let (stretchID, stretchInstance) = try Self.personalChore(server, "Stretch", of: f.ana)
        let toBen = try #require(try server.share(["choreIds": [.string(runID)]], with: ["email": .string(f.ben.email)], as: f.ana)["id"]?.stringValue)
        _ = try server.answerShare("acceptShare", toBen, as: f.ben)
        let dan = try server.person("dan")
        _ = try server.join(dan, f.householdID, invitedBy: f.ana)
        let toFlat = try #require(
            try server.share(["choreIds": [.string(stretchID)]], with: ["householdId": .string(f.householdID)], as: f.ana)["id"]?.stringValue)
        let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """
            EVENTS = "subscription($id: ID!) { sharedChoreEvents(shareId: $id) { kind shareId chore { title } instance { status } } }"
            async def show(who, ws):
                reply = await message(ws)
                if reply["type"] != "next":
                    errors = reply.get("payload") or [{}]
                    print(f"{who} {reply['type']} {errors[0].get('extensions', {}).get('code', '')}".rstrip())
                    return
                event = reply["payload"]["data"]["sharedChoreEvents"]
                print(f"{who} {event['kind']} {(event['chore'] or {}).get('title', '-')} {(event['instance'] or {}).get('status', '-')}")
            async def main(ana, ben, dan, cara, household, to_ben, to_flat, run, stretch):
                ben_ws = await connected(ben)
                await subscribe_to(ben_ws, "b", EVENTS, {"id": to_ben})
                dan_ws = await connected(dan)
                await subscribe_to(dan_ws, "d", EVENTS, {"id": to_flat})
                # Someone the share does not reach cannot subscribe.
                cara_ws = await connected(cara)
                await cara_ws.send(json.dumps({"type": "subscribe", "id": "c", "payload": {"query": EVENTS, "variables": {"id": to_ben}}}))
                await show("cara", cara_ws)
                # Ana's other personal chores never reach them.
                await call("mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }",
                           {"input": {"title": "Diary", "schedule": {"once": "2036-03-01T09:00:00Z"}}}, ana)
                # Each stream receives the events of its own share's chores only.
                for instance in (run, stretch):
                    await call("mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }", {"input": {"instanceId": instance}}, ana)
                await show("ben", ben_ws)
                await show("dan", dan_ws)
                # Dan leaves the household: his stream of its share ends at once.
                await call("mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { clientMutationId } }",
                           {"input": {"householdId": household, "incompleteTasks": "UNASSIGN"}}, dan)
                await show("dan", dan_ws)
                # Ana revokes Ben's share: his stream ends at once, before anything else she does.
                await call("mutation($input: RevokeShareInput!) { revokeShare(input: $input) { revokedShareId } }", {"input": {"shareId": to_ben}}, ana)
                await show("ben", ben_ws)
                await call("mutation($input: UncompleteChoreInput!) { uncompleteChore(input: $input) { clientMutationId } }",
                           {"input": {"instanceId": run}}, ana)
                print("ben after", post("query($id: ID!) { node(id: $id) { id } }", {"id": run}, ben)["data"]["node"])
                # A new subscription to the revoked share is refused.
                await ben_ws.send(json.dumps({"type": "subscribe", "id": "b2", "payload": {"query": EVENTS, "variables": {"id": to_ben}}}))
                await show("ben again", ben_ws)
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", f.ana.token, f.ben.token, dan.token, f.cara.token, f.householdID, toBen, toFlat, runInstance, stretchInstance])
        #expect(lines == [
            "cara error NOT_FOUND",
            "ben COMPLETED Run COMPLETED",
            "dan COMPLETED Stretch COMPLETED",
            "dan complete",
            "ben complete",
            "ben after None",
            "ben again error NOT_FOUND",
        ])
    }
}
