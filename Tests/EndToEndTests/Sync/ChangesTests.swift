import Foundation
import GraphQL
import Testing

/// Issue 17, "Reading what changed", through the binary: `changes(since:first:)` is scoped exactly
/// by visibility, turns gained visibility into upserts and lost visibility and cascading deletes
/// into tombstones, pages without losing or repeating anything, and refuses expired cursors.
@Suite struct ChangesTests {
    /// The ids of `changes` with `operation`.
    private static func ids(_ changes: [ServerProcess.SyncChange], _ operation: String) -> Set<String> {
        Set(changes.filter { $0.operation == operation }.map(\.id))
    }

    /// Ana following Ben, who has the habits Run, with `count` events (laps), and Swim.
    private static func anaFollowingBensHabits(
        _ server: ServerProcess, laps count: Int
    ) throws -> (ana: ServerProcess.Person, ben: ServerProcess.Person, run: String, swim: String, laps: [String]) {
        let ana = try server.person("ana"), ben = try server.person("ben")
        try server.follow(ben, by: ana)
        let run = try server.habit("Run", as: ben), swim = try server.habit("Swim", as: ben)
        return (ana, ben, run, swim, try (0..<count).map { _ in try server.habitEvent(of: run, as: ben) })
    }

    @Test func aMemberOfOneHouseholdReceivesNothingOfAnother() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let home = try server.createHousehold("Home", as: ana), other = try server.createHousehold("Other", as: ben)
        let theirs = try #require(try server.chore("Mow", in: other.householdID, as: ben)["id"]?.stringValue)
        let full = try server.allChanges(since: nil, as: ana)
        #expect(Self.ids(full.changes, "UPSERT").isSuperset(of: [ana.userID, home.householdID, home.memberID]))
        #expect(full.changes.allSatisfy { $0.operation == "UPSERT" && $0.nodeID == $0.id })
        #expect(full.changes.first { $0.id == home.householdID }?.typename == "Household")
        let everythingOfTheirs: Set = [other.householdID, other.memberID, theirs, ben.userID]
        #expect(Self.ids(full.changes, "UPSERT").isDisjoint(with: everythingOfTheirs))

        // Ben's household goes on changing; Ana's stream shows only her own household's change.
        _ = try server.chore("Rake", in: other.householdID, as: ben)
        let mine = try #require(try server.chore("Dishes", in: home.householdID, as: ana)["id"]?.stringValue)
        let after = try server.allChanges(since: full.cursor, as: ana)
        #expect(after.changes.map(\.id) == [mine] && after.changes.first?.operation == "UPSERT")
        #expect(after.changes.first?.typename == "Chore")
        #expect(try server.allChanges(since: after.cursor, as: ana).changes.isEmpty)
    }

    @Test func aFollowerReceivesNothingOfAPrivateHabitNotEvenATombstone() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        try server.follow(ben, by: ana)
        let start = try server.syncCursor(as: ana)
        let diary = try server.habit("Diary", as: ben, ["visibility": "PRIVATE"])
        let secret = try server.habitEvent(of: diary, as: ben)
        let run = try server.habit("Run", as: ben)
        _ = try server.graphQL(
            "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["habitId": .string(diary)]), token: ben.token)
        let seen = try server.allChanges(since: start, as: ana).changes
        #expect(seen.map(\.id) == [run] && seen.first?.operation == "UPSERT")
        #expect(!seen.contains { [diary, secret].contains($0.id) })
        // A full resync shows the same: the followed user's visible habit, nothing private.
        let full = try server.allChanges(since: nil, as: ana).changes.map(\.id)
        #expect(full.contains(run) && !full.contains(diary) && !full.contains(secret))
        // Ben, the owner, sees his private habit come and go.
        let owner = try server.allChanges(since: nil, as: ben).changes.map(\.id)
        #expect(owner.contains(run) && !owner.contains(diary))
    }

    @Test func aFollowAcceptedBringsUpsertsAndItsEndTombstonesOfTheFollowedUsersHabitsAndEvents() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let run = try server.habit("Run", as: ben), diary = try server.habit("Diary", as: ben, ["visibility": "PRIVATE"])
        let lap = try server.habitEvent(of: run, as: ben), note = try server.habitEvent(of: diary, as: ben)
        let before = try server.syncCursor(as: ana)
        let follow = try server.follow(ben, by: ana)
        let gained = try server.allChanges(since: before, as: ana)
        #expect(Self.ids(gained.changes, "UPSERT") == [follow, run, lap])
        #expect(Self.ids(gained.changes, "DELETE").isEmpty && !gained.changes.contains { [diary, note].contains($0.id) })
        #expect(gained.changes.first { $0.id == lap }?.typename == "HabitEvent")

        #expect(try server.answerFollow("unfollow", follow, as: ana).errorCode == nil)
        let lost = try server.allChanges(since: gained.cursor, as: ana)
        #expect(Self.ids(lost.changes, "DELETE") == [follow, run, lap])
        #expect(lost.changes.allSatisfy { $0.operation == "DELETE" && $0.nodeID == nil })
        #expect(lost.changes.first { $0.id == run }?.typename == "Habit")
    }

    @Test func makingAHabitPrivateOrDeletingItTombstonesItAndEveryEventForFollowers() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben, run, swim, laps) = try Self.anaFollowingBensHabits(server, laps: 3)
        let lengths = try (0..<2).map { _ in try server.habitEvent(of: swim, as: ben) }
        let cursor = try server.syncCursor(as: ana)

        let hidden = try server.graphQL(
            "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["habitId": .string(run), "visibility": "PRIVATE"]), token: ben.token)
        #expect(hidden.errorCode == nil, "\(hidden.json)")
        let deleted = try server.graphQL(
            "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["habitId": .string(swim)]), token: ben.token)
        #expect(deleted.errorCode == nil, "\(deleted.json)")
        let changes = try server.allChanges(since: cursor, as: ana).changes
        #expect(Self.ids(changes, "DELETE") == Set([run, swim] + laps + lengths))
        #expect(Self.ids(changes, "UPSERT").isEmpty)
        // The owner keeps the private habit and its events, and loses the deleted one's.
        let owner = try server.allChanges(since: cursor, as: ben).changes
        #expect(Self.ids(owner, "UPSERT") == Set([run] + laps) && Self.ids(owner, "DELETE") == Set([swim] + lengths))
    }

    @Test func leavingAHouseholdTombstonesItsObjects() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let home = try server.createHousehold("Home", as: ana)
        let before = try server.syncCursor(as: ben)
        let benMember = try server.join(ben, home.householdID, invitedBy: ana)
        let chore = try #require(try server.chore("Dishes", in: home.householdID, as: ana)["id"]?.stringValue)
        let joined = try server.allChanges(since: before, as: ben)
        #expect(Self.ids(joined.changes, "UPSERT").isSuperset(of: [home.householdID, home.memberID, benMember, chore]))

        let left = try server.graphQL(
            "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["householdId": .string(home.householdID), "incompleteTasks": "UNASSIGN"]), token: ben.token)
        #expect(left.errorCode == nil, "\(left.json)")
        let gone = try server.allChanges(since: joined.cursor, as: ben).changes
        #expect(Self.ids(gone, "DELETE").isSuperset(of: [home.householdID, home.memberID, chore]))
        #expect(Self.ids(gone, "UPSERT").isSubset(of: [ben.userID]))
        // Ana, still a member, sees Ben's member record change and nothing deleted.
        let stayed = try server.allChanges(since: joined.cursor, as: ana).changes
        #expect(stayed.contains { $0.id == benMember } && !stayed.contains { $0.id == home.householdID && $0.operation == "DELETE" })
    }

    @Test func deletingAHouseholdTombstonesEverythingInItForEveryMember() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let home = try server.createHousehold("Home", as: ana)
        let benMember = try server.join(ben, home.householdID, invitedBy: ana)
        let chore = try #require(try server.chore("Dishes", in: home.householdID, as: ana)["id"]?.stringValue)
        let tag = try server.tag("Kitchen", in: home.householdID, as: ana)
        let cursor = try server.syncCursor(as: ben)
        let deleted = try server.graphQL(
            "mutation($input: DeleteHouseholdInput!) { deleteHousehold(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["householdId": .string(home.householdID), "confirmName": "Home"]), token: ana.token)
        #expect(deleted.errorCode == nil, "\(deleted.json)")
        let gone = try server.allChanges(since: cursor, as: ben).changes
        #expect(Self.ids(gone, "DELETE").isSuperset(of: [home.householdID, home.memberID, benMember, chore, tag]))
        #expect(Self.ids(gone, "UPSERT").isSubset(of: [ben.userID]))
    }

    @Test func pagesOfFirstResumeExactlyWithoutLosingOrRepeatingAnything() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let run = try server.habit("Run", as: ben)
        let laps = try (0..<7).map { _ in try server.habitEvent(of: run, as: ben) }
        let cursor = try server.syncCursor(as: ana)
        let follow = try server.follow(ben, by: ana)
        let whole = try server.allChanges(since: cursor, as: ana)
        let paged = try server.allChanges(since: cursor, first: 2, as: ana)
        #expect(Set(whole.changes.map(\.id)) == Set([run] + laps).union(Self.ids(whole.changes, "UPSERT")))
        #expect(paged.changes.map(\.id).sorted() == whole.changes.map(\.id).sorted())
        #expect(Set(paged.changes.map(\.id)).count == paged.changes.count, "nothing repeated")
        // The follow's request and its acceptance: one object, shown once, at its acceptance; the
        // page is still full (the next entry is one of Ben's, now visible).
        let first = try server.changes(since: cursor, first: 2, as: ana)
        #expect(first.changes.first?.id == follow && first.changes.count == 2 && first.hasMore, "\(first.changes)")
        // A full resync in pages of one equals one page of everything.
        #expect(try server.allChanges(since: nil, first: 1, as: ana).changes.map(\.id).sorted()
            == server.allChanges(since: nil, as: ana).changes.map(\.id).sorted())
    }

    @Test func aDeviceApplyingPagesOfAnySizeEndsEqualToAFullResyncGettingEachObjectOnce() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben, run, swim, laps) = try Self.anaFollowingBensHabits(server, laps: 4)
        let node = "id ... on Habit { title visibility } ... on HabitEvent { comment }"
        func copy(of changes: [ServerProcess.SyncChange], over start: [String: JSON] = [:]) -> [String: JSON] {
            var copy = start
            for change in changes { copy[change.id] = change.operation == "UPSERT" ? change.node : nil }
            return copy
        }
        let before = try server.allChanges(since: nil, node: node, as: ana)
        func send(_ document: String, _ fields: [String: JSON]) throws {
            let sent = try server.graphQL(document, variables: ServerProcess.input(fields), token: ben.token)
            #expect(sent.errorCode == nil, "\(sent.json)")
        }
        let updateHabit = "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { clientMutationId } }"
        // The run hidden from followers and shown again (every lap in both rows), the swim renamed
        // twice with other changes between, a lap commented and another deleted.
        try send(updateHabit, ["habitId": .string(run), "visibility": "PRIVATE"])
        try send(updateHabit, ["habitId": .string(swim), "title": "Swim 1"])
        try send(updateHabit, ["habitId": .string(run), "visibility": "FOLLOWERS"])
        _ = try server.updateHabitEvent(["habitEventId": .string(laps[1]), "comment": "fast"], as: ben)
        try send("mutation($input: DeleteHabitEventInput!) { deleteHabitEvent(input: $input) { clientMutationId } }", ["habitEventId": .string(laps[0])])
        try send(updateHabit, ["habitId": .string(swim), "title": "Swim 2"])
        let resync = copy(of: try server.allChanges(since: nil, node: node, as: ana).changes)
        #expect(resync[swim]?["title"] == "Swim 2" && resync[laps[1]]?["comment"] == "fast" && resync[laps[0]] == nil, "\(resync)")
        for first in [1, 2, 3, 5, 50] {
            let read = try server.allChanges(since: before.cursor, first: first, node: node, as: ana)
            #expect(copy(of: read.changes, over: copy(of: before.changes)) == resync, "pages of \(first)")
            let ids = read.changes.map(\.id)
            #expect(Set(ids).count == ids.count && Set(ids) == Set([run, swim] + laps), "each object once, pages of \(first): \(ids)")
        }
    }

    @Test func aCursorOlderThanTheHorizonIsCursorExpiredAndBadInputIsRefused() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--sync-max-page", "3"])
        defer { server.remove() }
        let ana = try server.person("ana")
        _ = try server.habit("Run", as: ana)
        let cursor = try server.allChanges(since: nil, first: 3, as: ana).cursor
        #expect(try server.changesResponse(since: cursor, first: 3, as: ana).errorCode == nil)
        let tooMany = try server.changesResponse(since: cursor, first: 4, as: ana)
        #expect(tooMany.errorCode == "BAD_USER_INPUT" && tooMany.errorReason == "OUT_OF_RANGE")
        let malformed = try server.changesResponse(since: "yesterday", first: 1, as: ana)
        #expect(malformed.errorCode == "BAD_USER_INPUT" && malformed.errorReason == "INVALID_FORMAT")
        #expect(try server.changesResponse(since: cursor, first: 1, as: ana).errorCode == nil)
        // Retention pruned past the cursor: the client must resync in full.
        try server.databaseWrite("UPDATE change_log_retention SET pruned_through = (SELECT max(sequence) + 1 FROM change_log)")
        #expect(try server.changesResponse(since: cursor, first: 1, as: ana).errorCode == "CURSOR_EXPIRED")
        #expect(try server.changesResponse(since: nil, first: 1, as: ana).errorCode == nil)
        #expect(try server.graphQL("{ changes { endCursor } }").errorCode == "UNAUTHENTICATED")
    }
}
