import Foundation
import GraphQL
import Synchronization
import TestPython
import Testing

/// Vacation mode and departures' task choices through the binary (issue 15: FR-19 – FR-24, FR-14,
/// FR-15), named by requirement: pausing, round-robin redistribution, whole-household vacations
/// with a destination, every refusal, the race of a completion against a vacation's start, a
/// scheduled start and the end surviving `kill -9` (with the test clock, no sleeps), and the
/// leaderboard keeping a member who is away.
@Suite struct VacationTests {
    /// The server's arguments: the test clock and jobs endpoints, a short job lease, and access
    /// tokens that outlive the hours the tests move the clock forward.
    private static let arguments = ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"]

    /// `seconds` from now as RFC 3339 (whole seconds, UTC).
    private static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down)))
    }

    /// The chore family with Dan, another adult member.
    private static func familyWithDan(_ server: ServerProcess) throws -> (ServerProcess.ChoreFamily, ServerProcess.Person, String) {
        let f = try server.choreFamily()
        let dan = try server.person("dan")
        let danMemberID = try server.join(dan, f.householdID, invitedBy: f.ana)
        return (f, dan, danMemberID)
    }

    /// Creates chore `title` in the family's household with `extra` input (due in an hour, once)
    /// and returns its id and its stored instance ids.
    private static func chore(
        _ server: ServerProcess, _ f: ServerProcess.ChoreFamily, _ title: String, due: Double = 3600, _ extra: [String: JSON]
    ) throws -> (id: String, instances: [String]) {
        var input = extra
        input["schedule"] = ["once": .string(time(due))]
        let chore = try server.chore(title, in: f.householdID, as: f.ana, input)
        let id = try #require(chore["id"]?.stringValue, "\(chore)")
        return (id, try server.storedInstanceIDs(of: id))
    }

    @Test func FR19_FR22_FR23_aPausedMembersInstancesWaitOutOfTheDueListsAndReturnWhenTheyAreBack() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let beds = try Self.chore(server, f, "Make the bed", ["assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID), .string(f.kimMemberID)]])
        let bens = try #require(try server.databaseText(
            "SELECT id FROM chore_instances WHERE chore_id = '\(beds.id)' AND member_id = '\(f.benMemberID)'"))
        func listed(_ filter: [String: JSON] = [:]) throws -> [String] { try server.myInstances(as: f.ben, filter: filter).compactMap { $0["id"]?.stringValue } }
        #expect(try listed().contains(bens))

        let started = try server.startVacation(
            ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "PAUSE", "clientMutationId": "ben-away"], as: f.ben)
        #expect(started.json["errors"] == nil, "\(started.json)")
        let vacation = try #require(started.data?["startVacation"]?["vacations"]?[0])
        #expect(vacation["status"] == "ACTIVE" && vacation["handling"] == "PAUSE" && vacation["member"]?["id"]?.stringValue == f.benMemberID)
        #expect(try server.vacation(of: f.benMemberID, as: f.ana)["id"] == vacation["id"], "the household sees Ben is away")
        let paused = try server.instance(bens, as: f.ben)
        #expect(paused["status"] == "PAUSED" && paused["pausedAt"]?.stringValue != nil, "\(paused)")
        #expect(try !listed().contains(bens), "not in what is due")
        #expect(try listed(["statuses": ["PAUSED"]]) == [bens], "visible as paused")
        let kims = try #require(beds.instances.first { $0 != bens })
        #expect(try server.instance(kims, as: f.kim)["status"] == "PENDING", "Kim's own instance is untouched")
        let replay = try server.startVacation(
            ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "PAUSE", "clientMutationId": "ben-away"], as: f.ben)
        #expect(replay.data?["startVacation"]?["vacations"]?[0]?["id"] == vacation["id"], "a replay changes nothing: \(replay.json)")
        // Planned while he is away: paused from the start (the planner knows).
        let dishes = try Self.chore(server, f, "Dishes", ["assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID)]])
        #expect(try server.instance(try #require(dishes.instances.first), as: f.ben)["status"] == "PAUSED")
        // A leaderboard keeps a member who is away.
        #expect(try server.board(f.householdID, period: "ALL_TIME", as: f.ana).contains { $0.hasPrefix("ben ") })

        let ended = try server.endVacation(f.householdID, [f.benMemberID], as: f.ben)
        #expect(ended.data?["endVacation"]?["vacations"]?[0]?["status"] == "ENDED", "\(ended.json)")
        #expect(try server.instance(bens, as: f.ben)["status"] == "PENDING")
        #expect(try server.instance(try #require(dishes.instances.first), as: f.ben)["status"] == "PENDING")
        #expect(try Set(listed()).isSuperset(of: [bens]))
        #expect(try server.vacation(of: f.benMemberID, as: f.ben) == .null)
        let kinds = try server.databaseColumn("SELECT DISTINCT kind FROM change_log WHERE kind IN ('chore_instance.paused', 'chore_instance.resumed')")
        #expect(Set(kinds) == ["chore_instance.paused", "chore_instance.resumed"], "\(kinds)")
    }

    @Test func FR21_redistributionHandsInstancesRoundRobinByLoadInMemberOrderAndPausesWhatNobodyMayTake() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let (f, dan, danMemberID) = try Self.familyWithDan(server)
        _ = dan
        // Three shared chores Ben is the primary assignee of (every adult may do them), and one only Ben may do.
        var shared: [String] = []
        for (index, title) in ["Bins", "Hoover", "Windows"].enumerated() {
            let chore = try Self.chore(server, f, title, due: 3600 + Double(index) * 60, ["assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(f.benMemberID)]])
            shared.append(try #require(chore.instances.first))
        }
        let own = try #require(try Self.chore(server, f, "Ben's bike", ["assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)]]).instances.first)
        let started = try server.startVacation(
            ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "REDISTRIBUTE"], as: f.ana)
        #expect(started.json["errors"] == nil, "\(started.json)")
        // Ana and Dan hold nothing: by due time, the least loaded, ties to the lower member id (Ana joined first).
        let holders = try shared.map { try server.instance($0, as: f.ana)["reassignedTo"]?["id"]?.stringValue }
        #expect(holders == [f.anaMemberID, danMemberID, f.anaMemberID], "\(holders)")
        #expect(try server.instance(own, as: f.ana)["status"] == "PAUSED", "nobody else may do Ben's own chore")
        #expect(try server.myInstances(as: dan).contains { $0["id"]?.stringValue == shared[1] }, "Dan's list has what he was handed")
        #expect(try !server.myInstances(as: f.ana).contains { $0["id"]?.stringValue == shared[1] }, "and Ana's does not")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'chore_instance.reassigned'") == "3")
        // Dan completes what he was handed.
        #expect(try server.completeChore(shared[1], as: dan).data?["completeChore"]?["outcome"] == "COMPLETED")

        // Back: by default the helpers keep what they took; with the setting on, it goes back.
        let settings = try server.graphQL(
            "mutation($input: UpdateVacationSettingsInput!) { updateVacationSettings(input: $input) { household { reclaimRedistributedOnReturn } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "reclaimRedistributedOnReturn": true]), token: f.ana.token)
        #expect(settings.data?["updateVacationSettings"]?["household"]?["reclaimRedistributedOnReturn"] == true, "\(settings.json)")
        let refused = try server.graphQL(
            "mutation($input: UpdateVacationSettingsInput!) { updateVacationSettings(input: $input) { household { id } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "reclaimRedistributedOnReturn": false]), token: f.ben.token)
        #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "ADMINS_ONLY", "\(refused.json)")
        #expect(try server.endVacation(f.householdID, [f.benMemberID], as: f.ana).json["errors"] == nil)
        #expect(try server.instance(shared[0], as: f.ana)["reassignedTo"] == .null)
        #expect(try server.instance(shared[2], as: f.ana)["reassignedTo"] == .null)
        #expect(try server.instance(own, as: f.ana)["status"] == "PENDING")
    }

    @Test func FR21_theSameHouseholdAndVacationRedistributeAlikeEveryTime() throws {
        var outcomes: [[String]] = []
        for _ in 0..<2 {
            let server = try ServerProcess(Self.arguments)
            defer { server.remove() }
            let (f, _, danMemberID) = try Self.familyWithDan(server)
            var instances: [String] = []
            for index in 0..<5 {
                let chore = try Self.chore(server, f, "Chore \(index)", due: 3600 + Double(index) * 60, ["assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(f.benMemberID)]])
                instances.append(try #require(chore.instances.first))
            }
            _ = try server.startVacation(["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "REDISTRIBUTE"], as: f.ben)
            let names = [f.anaMemberID: "ana", danMemberID: "dan"]
            outcomes.append(try instances.map { names[try server.instance($0, as: f.ana)["reassignedTo"]?["id"]?.stringValue ?? ""] ?? "-" })
        }
        #expect(outcomes[0] == ["ana", "dan", "ana", "dan", "ana"], "\(outcomes)")
        #expect(outcomes[0] == outcomes[1])
    }

    @Test func FR20_aWholeHouseholdVacationPausesWhatNobodyIsLeftForAndMovesEveryoneToTheDestinationAndBack() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let bins = try #require(try Self.chore(server, f, "Bins", ["assignmentMode": "SINGLE_ACTION"]).instances.first)
        let (cottage, _) = try server.createHousehold("Cottage", as: f.ana)
        // Kim has an account: the destination must be hers too.
        _ = try server.join(f.ben, cottage, invitedBy: f.ana)
        let missing = try server.startHouseholdVacation(
            ["householdId": .string(f.householdID), "handling": "PAUSE", "destinationHouseholdId": .string(cottage)], as: f.ana)
        #expect(missing.errorCode == "BAD_USER_INPUT" && missing.errorField == "input.destinationHouseholdId", "\(missing.json)")
        #expect(missing.json["errors"]?[0]?["message"]?.stringValue?.hasSuffix("Kim does not.") == true, "\(missing.json)")
        _ = try server.childWithLogin(f.kim, in: cottage, by: f.ana)
        // Pip, a shadow member without an account, goes too: nothing to switch for him.
        let pip = try server.graphQL(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "kind": "SHADOW", "displayName": "Pip", "age": 15]), token: f.ana.token)
        let pipMemberID = try #require(pip.data?["addMember"]?["member"]?["id"]?.stringValue, "\(pip.json)")
        let member = try server.startHouseholdVacation(
            ["householdId": .string(f.householdID), "handling": "PAUSE", "destinationHouseholdId": .string(cottage)], as: f.ben)
        #expect(member.errorCode == "FORBIDDEN" && member.errorReason == "ADMINS_ONLY", "\(member.json)")

        let started = try server.startHouseholdVacation(
            ["householdId": .string(f.householdID), "handling": "REDISTRIBUTE", "destinationHouseholdId": .string(cottage)], as: f.ana)
        #expect(started.json["errors"] == nil, "\(started.json)")
        guard case .array(let vacations)? = started.data?["startHouseholdVacation"]?["vacations"] else { Issue.record("\(started.json)"); return }
        #expect(vacations.count == 4, "Ana, Ben, Kim and Pip")
        #expect(try server.vacation(of: pipMemberID, as: f.ana)["status"] == "ACTIVE")
        #expect(try server.instance(bins, as: f.ana)["status"] == "PAUSED", "nobody is left to take it")
        for person in [f.ana, f.ben, f.kim] { #expect(try server.activeHouseholdID(of: person) == cottage, "\(person.username)") }
        // Ben chose a household of his own meanwhile: coming back does not move him.
        let (den, _) = try server.createHousehold("Den", as: f.ben)
        let chosen = try server.graphQL(
            "mutation($input: SetActiveHouseholdInput!) { setActiveHousehold(input: $input) { household { id } } }",
            variables: ServerProcess.input(["householdId": .string(den)]), token: f.ben.token)
        #expect(chosen.json["errors"] == nil, "\(chosen.json)")

        let ended = try server.endVacation(f.householdID, [f.anaMemberID, f.benMemberID, f.kimMemberID, pipMemberID], as: f.ana)
        #expect(ended.json["errors"] == nil, "\(ended.json)")
        for person in [f.ana, f.kim] { #expect(try server.activeHouseholdID(of: person) == f.householdID, "\(person.username)") }
        #expect(try server.activeHouseholdID(of: f.ben) == den)
        #expect(try server.instance(bins, as: f.ana)["status"] == "PENDING")
    }

    @Test func FR19_everyRefusalNamesItsFieldAndReason() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        func start(_ extra: [String: JSON], as person: ServerProcess.Person) throws -> ServerProcess.GraphQLResponse {
            var input: [String: JSON] = ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "PAUSE"]
            input.merge(extra) { _, new in new }
            return try server.startVacation(input, as: person)
        }
        let other = try start(["memberIds": [.string(f.anaMemberID)]], as: f.ben)
        #expect(other.errorCode == "FORBIDDEN" && other.errorReason == "ADMINS_ONLY", "\(other.json)")
        #expect(other.json["errors"]?[0]?["message"]?.stringValue?.contains("you may start your own") == true)
        let backwards = try start(["startsAt": .string(Self.time(7200)), "endsAt": .string(Self.time(3600))], as: f.ben)
        #expect(backwards.errorCode == "BAD_USER_INPUT" && backwards.errorField == "input.endsAt", "\(backwards.json)")
        let past = try start(["endsAt": .string(Self.time(-60))], as: f.ben)
        #expect(past.errorCode == "BAD_USER_INPUT" && past.errorField == "input.endsAt", "\(past.json)")
        let unknown = try start(["memberIds": [.string(f.caraMemberID)]], as: f.ana)
        #expect(unknown.errorCode == "BAD_USER_INPUT" && unknown.errorField == "input.memberIds[0]", "\(unknown.json)")
        let empty = try start(["memberIds": []], as: f.ana)
        #expect(empty.errorCode == "BAD_USER_INPUT" && empty.errorField == "input.memberIds", "\(empty.json)")
        let itself = try start(["destinationHouseholdId": .string(f.householdID)], as: f.ben)
        #expect(itself.errorCode == "BAD_USER_INPUT" && itself.errorField == "input.destinationHouseholdId", "\(itself.json)")
        let foreign = try start(["destinationHouseholdId": .string(f.caraHouseholdID)], as: f.ben)
        #expect(foreign.errorCode == "BAD_USER_INPUT" && foreign.errorField == "input.destinationHouseholdId", "\(foreign.json)")
        let outsider = try start([:], as: f.cara)
        #expect(outsider.errorCode == "NOT_FOUND", "\(outsider.json)")

        #expect(try start(["endsAt": .string(Self.time(86_400))], as: f.ben).json["errors"] == nil)
        let overlap = try start(["startsAt": .string(Self.time(3600)), "endsAt": .string(Self.time(90_000))], as: f.ana)
        #expect(overlap.errorCode == "BAD_USER_INPUT" && overlap.errorField == "input.memberIds[0]", "\(overlap.json)")
        #expect(overlap.json["errors"]?[0]?["message"]?.stringValue?.hasPrefix("ben already has a vacation from") == true, "\(overlap.json)")
        let later = try start(["startsAt": .string(Self.time(86_400)), "endsAt": .string(Self.time(90_000))], as: f.ben)
        #expect(later.json["errors"] == nil, "one starting as the first ends does not overlap: \(later.json)")
        let notAway = try server.endVacation(f.householdID, [f.anaMemberID], as: f.ana)
        #expect(notAway.errorCode == "BAD_USER_INPUT" && notAway.errorField == "input.memberIds[0]", "\(notAway.json)")
        let othersEnd = try server.endVacation(f.householdID, [f.anaMemberID], as: f.ben)
        #expect(othersEnd.errorCode == "FORBIDDEN" && othersEnd.errorReason == "ADMINS_ONLY", "\(othersEnd.json)")
    }

    @Test func FR22_completingAgainstAVacationStartEndsConsistentlyInEitherOrder() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        nonisolated(unsafe) let shared = server  // graphQL opens a connection per call and reads only the port
        var orders: Set<String> = []
        for round in 0..<6 {
            let chore = try Self.chore(server, f, "Race \(round)", due: 3600 + Double(round), ["assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)]])
            let instance = try #require(chore.instances.first)
            let answers = Mutex<[Int: ServerProcess.GraphQLResponse]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let answer = try? index == 0
                    ? shared.completeChore(instance, as: f.ben)
                    : shared.startVacation(["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "PAUSE"], as: f.ben)
                answers.withLock { $0[index] = answer }
            }
            let (completion, vacation) = answers.withLock { ($0[0], $0[1]) }
            #expect(completion?.data?["completeChore"]?["outcome"] == "COMPLETED", "\(String(describing: completion?.json))")
            #expect(vacation?.json["errors"] == nil, "\(String(describing: vacation?.json))")
            let now = try server.instance(instance, as: f.ana)
            #expect(now["status"] == "COMPLETED" && now["pausedAt"] == .null, "either order: done, never left paused: \(now)")
            let pausedFirst = try server.databaseText(
                "SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'chore_instance.paused' AND payload LIKE '%\(instance)%'") == "1"
            orders.insert(pausedFirst ? "vacation first" : "completion first")
            #expect(try server.endVacation(f.householdID, [f.benMemberID], as: f.ben).json["errors"] == nil)
        }
        #expect(!orders.isEmpty)
    }

    @Test func FR24_aScheduledVacationBeginsAndEndsByItselfEvenAfterKill9AndARestart() throws {
        let first = try ServerProcess(Self.arguments)
        var removed = false
        defer { if !removed { first.remove() } }
        let f = try first.choreFamily()
        let beds = try Self.chore(first, f, "Beds", due: 2 * 86_400, ["assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID)]])
        let instance = try #require(beds.instances.first)
        let now = Date()
        let started = try first.startVacation(
            ["householdId": .string(f.householdID), "memberIds": [.string(f.benMemberID)], "handling": "PAUSE",
             "startsAt": .string(Self.time(3600)), "endsAt": .string(Self.time(7200))], as: f.ana)
        #expect(started.data?["startVacation"]?["vacations"]?[0]?["status"] == "SCHEDULED", "\(started.json)")
        #expect(try first.instance(instance, as: f.ben)["status"] == "PENDING", "not away yet")
        try first.moveClock(to: now.addingTimeInterval(3700))
        try first.waitForDueJobs()
        #expect(try first.vacation(of: f.benMemberID, as: f.ben)["status"] == "ACTIVE")
        #expect(try first.instance(instance, as: f.ben)["status"] == "PAUSED")

        #expect(first.stop(signal: SIGKILL) == SIGKILL)
        let restarted = try ServerProcess(directory: first.directory, arguments: Self.arguments)
        removed = true
        defer { restarted.remove() }
        try restarted.moveClock(to: now.addingTimeInterval(7300))
        try restarted.waitForDueJobs()
        #expect(try restarted.vacation(of: f.benMemberID, as: f.ben) == .null, "ended at its end")
        #expect(try restarted.instance(instance, as: f.ben)["status"] == "PENDING")
        #expect(try restarted.databaseText("SELECT status FROM member_vacations") == "ended")
        #expect(try restarted.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'member.vacation_ended'") == "1", "once")
    }

    @Test func FR14_FR15_aDeparturesChoiceIsCarriedOutOnTheInstancesTheMemberHeld() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let (f, dan, danMemberID) = try Self.familyWithDan(server)
        // Ben's chore, which Dan may do as its fallback; and one of Dan's that Ana may do.
        let bens = try #require(try Self.chore(server, f, "Ben's", [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "completers": ["memberIds": [.string(danMemberID)]],
        ]).instances.first)
        let dans = try #require(try Self.chore(server, f, "Dan's", [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(danMemberID)], "completers": ["memberIds": [.string(f.anaMemberID)]],
        ]).instances.first)
        let left = try server.graphQL(
            "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "incompleteTasks": "REDISTRIBUTE"]), token: f.ben.token)
        #expect(left.json["errors"] == nil, "\(left.json)")
        #expect(try server.instance(bens, as: f.ana)["reassignedTo"]?["id"]?.stringValue == danMemberID, "FR-15: redistributed")
        #expect(try server.myInstances(as: dan).contains { $0["id"]?.stringValue == bens })
        #expect(try server.databaseText(
            "SELECT CAST(count(*) AS TEXT) FROM member_departures WHERE member_id = '\(f.benMemberID)' AND tasks_handled_at IS NOT NULL") == "1")

        let removed = try server.graphQL(
            "mutation($input: RemoveMemberInput!) { removeMember(input: $input) { removedMemberId } }",
            variables: ServerProcess.input(["memberId": .string(danMemberID), "incompleteTasks": "UNASSIGN"]), token: f.ana.token)
        #expect(removed.json["errors"] == nil, "\(removed.json)")
        // FR-14, unassigned: nobody holds Dan's chore (it was not handed on; Ana may still do it).
        let unassigned = try server.instance(dans, as: f.ana)
        #expect(unassigned["reassignedTo"] == .null && unassigned["status"] == "PENDING", "\(unassigned)")
        // What Dan had been handed goes on by Ben's choice: with nobody left who may do it, it waits.
        let waiting = try server.instance(bens, as: f.ana)
        #expect(waiting["reassignedTo"] == .null && waiting["status"] == "PAUSED", "\(waiting)")
    }

    @Test func FR21_FR22_FR23_choreEventsTellEveryMembersDevicesWhatWasPausedHandedOnAndResumedAndHouseholdEventsWhoIsAway() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let (f, dan, _) = try Self.familyWithDan(server)
        _ = try Self.chore(server, f, "Bins", ["assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(f.benMemberID)]])
        _ = try Self.chore(server, f, "Bike", due: 3660, ["assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)]])
        let lines = try TestPython.runScript(ServerProcess.choreEventsScript + """

            async def main(ana, dan, ben, household, member):
                sockets = {"ana": await connected(ana), "dan": await connected(dan)}
                for who, ws in sockets.items():
                    await subscribe(ws, who, household)
                members = await connected(ana)
                await subscribe_to(members, "m", "subscription($id: ID!) { householdEvents(householdId: $id) { kind memberId } }", {"id": household})
                def member_event(reply):
                    event = reply["payload"]["data"]["householdEvents"]
                    return f"household {event['kind']} {'ben' if event['memberId'] == member else event['memberId']}"
                start = "mutation($input: StartVacationInput!) { startVacation(input: $input) { clientMutationId } }"
                end = "mutation($input: EndVacationInput!) { endVacation(input: $input) { clientMutationId } }"
                await call(start, {"input": {"householdId": household, "memberIds": [member], "handling": "REDISTRIBUTE"}}, ben)
                for who, ws in sockets.items():
                    for _ in range(2):
                        print(describe(who, await message(ws)))
                print(member_event(await message(members)))
                await call(end, {"input": {"householdId": household, "memberIds": [member]}}, ben)
                for who, ws in sockets.items():
                    for _ in range(2):
                        print(describe(who, await message(ws)))
                print(member_event(await message(members)))
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", f.ana.token, dan.token, f.ben.token, f.householdID, f.benMemberID])
        #expect(lines == [
            // Bins goes to Ana (nobody holds anything; Ana's member id is the lower); only Ben may do his bike.
            "ana REASSIGNED Bins member=ana claimant=- dismisses=False",
            "ana PAUSED Bike member=ben claimant=- dismisses=False",
            "dan REASSIGNED Bins member=ana claimant=- dismisses=False",
            "dan PAUSED Bike member=ben claimant=- dismisses=False",
            "household MEMBER_VACATION_STARTED ben",
            // Ben is back before either is due: the bins come back to him (not due yet, whatever the household's
            // reclaiming) and his bike resumes.
            "ana REASSIGNED Bins member=ben claimant=- dismisses=False",
            "ana RESUMED Bike member=ben claimant=- dismisses=False",
            "dan REASSIGNED Bins member=ben claimant=- dismisses=False",
            "dan RESUMED Bike member=ben claimant=- dismisses=False",
            "household MEMBER_VACATION_ENDED ben",
        ])
    }
}
