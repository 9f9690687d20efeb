import Foundation
import GraphQL
import Synchronization
import TestPython
import Testing

/// Claiming through the binary (issue 15: FR-51 – FR-53), named by requirement: exactly one of
/// many simultaneous claims wins, claim against completion, the claimant's list, releasing, every
/// refusal, and the live `choreEvents` stream with real graphql-transport-ws clients.
@Suite struct ClaimingTests {
    /// `seconds` from now as RFC 3339 (whole seconds, UTC).
    private static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down)))
    }

    /// A `SINGLE_ACTION` chore due at `due` (every adult eligible), and its instance as Ana lists it.
    private static func sharedChore(_ server: ServerProcess, _ f: ServerProcess.ChoreFamily, _ title: String, due: String) throws -> String {
        let chore = try server.chore(title, in: f.householdID, as: f.ana, ["assignmentMode": "SINGLE_ACTION", "schedule": ["once": .string(due)]])
        let choreID = try #require(chore["id"]?.stringValue)
        let listed = try server.myInstances(as: f.ana).first { $0["chore"]?["id"]?.stringValue == choreID }
        return try #require(listed?["id"]?.stringValue, "no instance of \(title) in Ana's list")
    }

    @Test func FR52_ofSixtyFourSimultaneousClaimsSpreadOverTheEligibleMembersExactlyOneWinsAndTheRestAreConflictsNamingTheClaimant() throws {
        try ServerProcess.withChoreFamily { server, f in
            let people = try [f.ana, f.ben] + server.adults("dan", "eve", joining: f)
            let instance = try Self.sharedChore(server, f, "Bins", due: Self.time(3600))
            nonisolated(unsafe) let shared = server  // graphQL opens a connection per call and reads only the port
            let answers = Mutex<[ServerProcess.GraphQLResponse]>([])
            DispatchQueue.concurrentPerform(iterations: 64) { index in
                guard let answer = try? shared.claimChore(instance, as: people[index % people.count]) else { return }
                answers.withLock { $0.append(answer) }
            }
            let all = answers.withLock { $0 }
            #expect(all.count == 64)
            let winners = all.filter { $0.errorCode == nil }
            #expect(winners.count == 1, "\(winners.map(\.json))")
            let claimant = try #require(winners.first?.data?["claimChore"]?["claimant"])
            #expect(winners.first?.data?["claimChore"]?["instance"]?["claimant"] == claimant)
            let name = try #require(claimant["displayName"]?.stringValue)
            for answer in all where answer.errorCode != nil {
                #expect(answer.errorCode == "CONFLICT" && answer.errorReason == "ALREADY_CLAIMED", "\(answer.json)")
                #expect(answer.errorExtensions?["claimant"]?["id"] == claimant["id"], "\(answer.json)")
                #expect(answer.errorExtensions?["claimant"]?["displayName"] == claimant["displayName"])
                let message = answer.json["errors"]?[0]?["message"]?.stringValue
                #expect(message == "\(name) claimed this chore first." || message == "You claimed this chore already.", "\(answer.json)")
            }
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'chore_instance.claimed'") == "1")
        }
    }

    @Test func FR52_claimAgainstCompleteEndsOneWayEveryTime() throws {
        try ServerProcess.withChoreFamily { server, f in
            let dan = try server.adults("dan", joining: f)[0]
            nonisolated(unsafe) let shared = server
            var endings: Set<String> = []
            for round in 0..<8 {
                let instance = try Self.sharedChore(server, f, "Race \(round)", due: Self.time(3600 + Double(round)))
                let answers = Mutex<[Int: ServerProcess.GraphQLResponse]>([:])
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    let answer = try? index == 0 ? shared.claimChore(instance, as: f.ben) : shared.completeChore(instance, as: dan)
                    answers.withLock { $0[index] = answer }
                }
                let (claim, completion) = answers.withLock { ($0[0], $0[1]) }
                if claim?.errorCode == nil {
                    // Ben claimed first: Dan may not complete what Ben claimed.
                    #expect(completion?.errorCode == "FORBIDDEN" && completion?.errorReason == "CLAIMED_BY_OTHER", "\(String(describing: completion?.json))")
                    #expect(completion?.errorExtensions?["claimant"]?["id"]?.stringValue == f.benMemberID)
                    endings.insert("claimed")
                } else {
                    #expect(claim?.errorCode == "CONFLICT" && claim?.errorReason == "ALREADY_COMPLETED", "\(String(describing: claim?.json))")
                    #expect(completion?.data?["completeChore"]?["outcome"] == "COMPLETED", "\(String(describing: completion?.json))")
                    endings.insert("completed")
                }
            }
            #expect(!endings.isEmpty)
        }
    }

    @Test func FR52_FR53_theClaimantsListReleasingAndEveryRefusal() throws {
        try ServerProcess.withChoreFamily { server, f in
            let instance = try Self.sharedChore(server, f, "Bins", due: Self.time(3600))
            func listed(_ person: ServerProcess.Person) throws -> Bool { try server.myInstances(as: person).contains { $0["id"]?.stringValue == instance } }
            #expect(try listed(f.ana) && listed(f.ben))
            // Kim is a child: not eligible for a chore every adult may do. Cara is in another household.
            let child = try server.claimChore(instance, as: f.kim)
            #expect(child.errorCode == "FORBIDDEN" && child.errorReason == "CHORE_COMPLETERS", "\(child.json)")
            #expect(child.json["errors"]?[0]?["message"]?.stringValue?.hasPrefix("This chore may be claimed only by admins and every adult;") == true, "\(child.json)")
            let outsider = try server.claimChore(instance, as: f.cara)
            let unknown = try server.claimChore("chi_01900000-0000-7000-8000-000000000000", as: f.cara)
            #expect(outsider.errorCode == "NOT_FOUND" && outsider.json["errors"] == unknown.json["errors"], "\(outsider.json)")
            let nothing = try server.releaseChore(instance, as: f.ben)
            #expect(nothing.errorCode == "CONFLICT" && nothing.errorReason == "NOT_CLAIMED", "\(nothing.json)")

            let claimed = try server.claimChore(instance, as: f.ben, ["clientMutationId": "ben-bins"])
            #expect(claimed.data?["claimChore"]?["claimant"]?["id"]?.stringValue == f.benMemberID, "\(claimed.json)")
            #expect(claimed.data?["claimChore"]?["instance"]?["claimedAt"]?.stringValue != nil)
            #expect(try listed(f.ben) && !listed(f.ana))
            let replay = try server.claimChore(instance, as: f.ben, ["clientMutationId": "ben-bins"])
            #expect(replay.errorCode == nil && replay.data?["claimChore"]?["claimant"] == claimed.data?["claimChore"]?["claimant"], "\(replay.json)")

            // Ana (an admin) releases Ben's claim; it is in her list again.
            let released = try server.releaseChore(instance, as: f.ana)
            #expect(released.data?["releaseChore"]?["releasedClaimant"]?["id"]?.stringValue == f.benMemberID, "\(released.json)")
            #expect(released.data?["releaseChore"]?["instance"]?["claimant"] == .null)
            #expect(try listed(f.ana) && listed(f.ben))
            // Ana claims; Ben may neither release nor complete it.
            #expect(try server.claimChore(instance, as: f.ana).errorCode == nil)
            let theirs = try server.releaseChore(instance, as: f.ben)
            #expect(theirs.errorCode == "FORBIDDEN" && theirs.errorReason == "CLAIMED_BY_OTHER", "\(theirs.json)")
            #expect(theirs.errorExtensions?["claimant"]?["id"]?.stringValue == f.anaMemberID)
            #expect(try server.completeChore(instance, as: f.ben).errorReason == "CLAIMED_BY_OTHER")
            #expect(try server.completeChore(instance, as: f.ana).data?["completeChore"]?["outcome"] == "COMPLETED")
            let done = try server.claimChore(instance, as: f.ben)
            #expect(done.errorCode == "CONFLICT" && done.errorReason == "ALREADY_COMPLETED", "\(done.json)")
        }
    }

    @Test func FR51_FR52_FR53_twoMembersSubscribeOneClaimsAndTheOtherReceivesTheDismissalThenTheReleaseAndAnOffer() throws {
        try ServerProcess.withChoreFamily(["--test-endpoints"]) { server, f in
            let lines = try TestPython.runScript(ServerProcess.choreEventsScript + """

                async def show(who, ws):
                    reply = await message(ws)
                    print(describe(who, reply))
                    return reply
                async def main(ana, ben, household, due):
                    ana_ws, ben_ws = await subscribed([ana, ben], EVENTS, {"id": household})
                    await call("mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }",
                               {"input": {"householdId": household, "title": "Bins", "assignmentMode": "SINGLE_ACTION", "schedule": {"once": due}}}, ana)
                    # The chore, its instance, and the offer to both adults when it comes due a second later.
                    for who, ws in (("ana", ana_ws), ("ben", ben_ws)):
                        await show(who, ws)
                        instance = (await show(who, ws))["payload"]["data"]["choreEvents"]["instance"]["id"]
                        await show(who, ws)
                    claim = "mutation($input: ClaimChoreInput!) { claimChore(input: $input) { clientMutationId } }"
                    release = "mutation($input: ReleaseChoreInput!) { releaseChore(input: $input) { clientMutationId } }"
                    await call(claim, {"input": {"instanceId": instance}}, ana)
                    cursor = (await show("ana", ana_ws))["payload"]["data"]["choreEvents"]["sequence"]
                    await show("ben", ben_ws)
                    await call(release, {"input": {"instanceId": instance}}, ana)
                    await show("ana", ana_ws)
                    await show("ben", ben_ws)
                    await show("ben", ben_ws)
                    await call(claim, {"input": {"instanceId": instance}}, ben)
                    await show("ana", ana_ws)
                    await show("ben", ben_ws)
                    # Resuming after Ana's claim replays what came after it from the change log.
                    resumed = await connected(ben)
                    await subscribe(resumed, "r", household, after=cursor)
                    for _ in range(3):
                        await show("ben resumed", resumed)
                    # Ben leaves: his streams end at once; his claim is released and offered to Ana.
                    await call("mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { clientMutationId } }",
                               {"input": {"householdId": household, "incompleteTasks": "UNASSIGN"}}, ben)
                    await show("ben", ben_ws)
                    await show("ben resumed", resumed)
                    await show("ana", ana_ws)
                    await show("ana", ana_ws)
                asyncio.run(main(*sys.argv[2:]))
                """, ["http://127.0.0.1:\(server.port)", f.ana.token, f.ben.token, f.householdID, Self.time(1)])
            #expect(lines == [
                "ana CHORE_CREATED - member=- claimant=- dismisses=False",
                "ana INSTANCE_CREATED Bins member=- claimant=- dismisses=False",
                "ana OFFERED Bins member=- claimant=- dismisses=False",
                "ben CHORE_CREATED - member=- claimant=- dismisses=False",
                "ben INSTANCE_CREATED Bins member=- claimant=- dismisses=False",
                "ben OFFERED Bins member=- claimant=- dismisses=False",
                // Ana claims: Ben's offer is dismissed.
                "ana CLAIMED Bins member=ana claimant=ana dismisses=False",
                "ben CLAIMED Bins member=ana claimant=ana dismisses=True",
                // Ana releases: it is offered to Ben again, not to her.
                "ana RELEASED Bins member=ana claimant=- dismisses=False",
                "ben RELEASED Bins member=ana claimant=- dismisses=False",
                "ben OFFERED Bins member=- claimant=- dismisses=False",
                "ana CLAIMED Bins member=ben claimant=ben dismisses=True",
                "ben CLAIMED Bins member=ben claimant=ben dismisses=False",
                // Replayed after Ana's claim (each instance as it is now: Ben's).
                "ben resumed RELEASED Bins member=ana claimant=ben dismisses=False",
                "ben resumed OFFERED Bins member=- claimant=ben dismisses=False",
                "ben resumed CLAIMED Bins member=ben claimant=ben dismisses=False",
                // Ben leaves: his streams end; his claim is released and offered to Ana.
                "ben complete",
                "ben resumed complete",
                "ana RELEASED Bins member=ben claimant=- dismisses=False",
                "ana OFFERED Bins member=- claimant=- dismisses=False",
            ], "\(lines.joined(separator: "\n"))")
        }
    }
}
