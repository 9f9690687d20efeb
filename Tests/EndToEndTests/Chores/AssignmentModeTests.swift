import Foundation
import GraphQL
import Testing

/// The four assignment modes (FR-27 – FR-30) through the binary, by the instances they make:
/// who gets one, who may complete it, and what one completion does to the others' lists.
@Suite struct AssignmentModeTests {
    /// `seconds` from now as RFC 3339 (whole seconds, UTC).
    private static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down)))
    }

    /// The pending instances of chore `choreID` in `person`'s `myChores`.
    private static func instances(of choreID: String, _ server: ServerProcess, as person: ServerProcess.Person) throws -> [JSON] {
        try server.myInstances(as: person).filter { $0["chore"]?["id"]?.stringValue == choreID }
    }

    @Test func FR27_anIndividualChoreIsItsAssigneesAndItsFallbackCompletersMayCompleteIt() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Kim's room", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.kimMemberID)], "completers": ["memberIds": [.string(f.benMemberID)]],
            "requiresApproval": false, "schedule": ["once": .string(Self.time(3600))],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let kims = try Self.instances(of: choreID, server, as: f.kim)
        #expect(kims.count == 1 && kims.first?["member"] == .null, "one shared instance: \(kims)")
        #expect(try Self.instances(of: choreID, server, as: f.ben).isEmpty, "a fallback completer is not its assignee")
        let instanceID = try #require(kims.first?["id"]?.stringValue)
        let done = try server.completeChore(instanceID, as: f.ben)
        #expect(done.data?["completeChore"]?["outcome"] == "COMPLETED", "\(done.json)")
        #expect(done.data?["completeChore"]?["completion"]?["member"]?["id"]?.stringValue == f.benMemberID)
        #expect(try Self.instances(of: choreID, server, as: f.kim).isEmpty, "done for its assignee too")
    }

    @Test func FR28_aGroupChoreGivesEachChosenMemberTheirOwnInstanceCompletedIndependently() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Homework", in: f.householdID, as: f.ana, [
            "assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID), .string(f.kimMemberID)], "requiresApproval": false,
            "schedule": ["once": .string(Self.time(3600))],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let bens = try Self.instances(of: choreID, server, as: f.ben)
        let kims = try Self.instances(of: choreID, server, as: f.kim)
        #expect(bens.count == 1 && kims.count == 1 && bens.first?["id"] != kims.first?["id"], "\(bens) \(kims)")
        #expect(bens.first?["member"]?["id"]?.stringValue == f.benMemberID && kims.first?["member"]?["id"]?.stringValue == f.kimMemberID)
        #expect(try Self.instances(of: choreID, server, as: f.ana).isEmpty, "not chosen")
        let kimsID = try #require(kims.first?["id"]?.stringValue)
        #expect(try server.completeChore(kimsID, as: f.ben).errorReason == "CHORE_COMPLETERS", "Kim's instance is hers")
        let bensDone = try server.completeChore(try #require(bens.first?["id"]?.stringValue), as: f.ben)
        #expect(bensDone.data?["completeChore"]?["outcome"] == "COMPLETED", "\(bensDone.json)")
        #expect(try Self.instances(of: choreID, server, as: f.ben).isEmpty)
        #expect(try Self.instances(of: choreID, server, as: f.kim).map { $0["status"] } == ["PENDING"], "Kim's is still to do")
        #expect(try server.completeChore(kimsID, as: f.kim).data?["completeChore"]?["outcome"] == "COMPLETED")
        #expect(try server.databaseColumn("SELECT DISTINCT status FROM chore_instances WHERE chore_id = '\(choreID)'") == ["completed"])
    }

    @Test func FR29_anAllMembersChoreFollowsWhoJoinsAndLeavesInEveryInstanceNotStarted() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Tidy up", in: f.householdID, as: f.ana, [
            "assignmentMode": "ALL_MEMBERS", "requiresApproval": false, "schedule": ["recurrence": "DTSTART:20260101T180000Z\nRRULE:FREQ=DAILY"],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let first = try Self.instances(of: choreID, server, as: f.ana)
        #expect(!first.isEmpty && first.allSatisfy { $0["member"]?["id"]?.stringValue == f.anaMemberID })
        for person in [f.ben, f.kim] {
            #expect(try Self.instances(of: choreID, server, as: person).count == first.count, "one each, every day to the horizon")
        }
        let dan = try server.person("dan")
        let danMember = try server.join(dan, f.householdID, invitedBy: f.ana)
        let dans = try Self.instances(of: choreID, server, as: dan)
        #expect(dans.count == first.count && dans.allSatisfy { $0["member"]?["id"]?.stringValue == danMember }, "planned for the newcomer at once")
        let left = try server.graphQL(
            "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "incompleteTasks": "UNASSIGN"]), token: f.ben.token)
        #expect(left.json["errors"] == nil, "\(left.json)")
        #expect(try server.databaseText(
            "SELECT CAST(count(*) AS TEXT) FROM chore_instances WHERE chore_id = '\(choreID)' AND member_id = '\(f.benMemberID)'")
            == "0", "the leaver's instances, none started, are withdrawn")
        #expect(try Self.instances(of: choreID, server, as: f.kim).count == first.count, "the others keep theirs")
    }

    @Test func FR30_aSingleActionChoreIsDoneForEveryoneByTheFirstCompletionAndLeavesEveryList() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Bins out", in: f.householdID, as: f.ana, [
            "assignmentMode": "SINGLE_ACTION", "requiresApproval": false, "schedule": ["once": .string(Self.time(3600))],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let anas = try Self.instances(of: choreID, server, as: f.ana)
        let bens = try Self.instances(of: choreID, server, as: f.ben)
        #expect(anas.count == 1 && anas.map { $0["id"] } == bens.map { $0["id"] }, "one shared instance, claimable by every adult")
        #expect(try Self.instances(of: choreID, server, as: f.kim).isEmpty, "children complete only what is assigned to them")
        let done = try server.completeChore(try #require(bens.first?["id"]?.stringValue), as: f.ben)
        #expect(done.data?["completeChore"]?["outcome"] == "COMPLETED", "\(done.json)")
        #expect(try Self.instances(of: choreID, server, as: f.ana).isEmpty && Self.instances(of: choreID, server, as: f.ben).isEmpty)
        let again = try server.completeChore(try #require(anas.first?["id"]?.stringValue), as: f.ana)
        #expect(again.data?["completeChore"]?["outcome"] == "ALREADY_COMPLETED", "\(again.json)")
        #expect(again.data?["completeChore"]?["completion"]?["member"]?["id"]?.stringValue == f.benMemberID)

        // With a primary assignee, a child: hers first, and any adult may still step in.
        let kimsChore = try server.chore("Feed the fish", in: f.householdID, as: f.ana, [
            "assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(f.kimMemberID)], "requiresApproval": false,
            "schedule": ["once": .string(Self.time(7200))],
        ])
        let kimsID = try #require(kimsChore["id"]?.stringValue)
        let kims = try Self.instances(of: kimsID, server, as: f.kim)
        #expect(kims.count == 1, "\(kims)")
        let stepIn = try server.completeChore(try #require(kims.first?["id"]?.stringValue), as: f.ben)
        #expect(stepIn.data?["completeChore"]?["outcome"] == "COMPLETED", "\(stepIn.json)")
        #expect(try Self.instances(of: kimsID, server, as: f.kim).isEmpty)
    }
}
