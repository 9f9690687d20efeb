import Foundation
import GraphQL
import Testing

/// Found by the convergence simulation (seed 20261202): a phone whose answer was lost sends its
/// queue again; a write in it whose object was deleted since (later in the same queue, or by
/// another phone) replays by its `clientMutationId`, and the replay reads the object as it is now.
/// The answer is `NOT_FOUND` with reason `DELETED` (deletes win, as for a new write of a deleted
/// object): `MutationReplay` answers the stored ids, and the read of the gone object after the
/// commit goes through `Tombstones.answer` (it was a plain `NOT_FOUND`, "No such habit.", before).
@Suite struct ReplayOfADeletedObjectTests {
    @Test func aReplayedCreateOfAHabitDeletedSinceAnswersDeleted() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let habit = "hab_0190bbbb-0000-7000-8000-0000000000a1"
        let create = ServerProcess.habitEntry(habit, title: "Run", clientMutationID: "q-1")
        let delete = ServerProcess.batchEntry(
            "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { clientMutationId } }",
            ServerProcess.input(["habitId": .string(habit), "clientMutationId": "q-2"]))
        let first = ServerProcess.batchResults(try server.syncBatch([create, delete], as: ana))
        #expect(first.map { $0["isSuccess"] } == [true, true])

        let again = ServerProcess.batchResults(try server.syncBatch([create, delete], as: ana))
        let refusal = again.first?["response"]?["errors"]?[0]?["extensions"]
        #expect(refusal?["code"] == "NOT_FOUND")
        #expect(refusal?["reason"] == "DELETED", "\(again)")
    }

    /// The same for a follow request withdrawn since and a completion of a chore deleted since
    /// (found again by the simulation once it followed and completed): the reads after `mutate` of
    /// `requestFollow`, `acceptFollowRequest`, `completeChore`, `uncompleteChore`, `claimChore`
    /// and `releaseChore` go through `Tombstones.answer` too.
    @Test func replaysOfAFollowRequestWithdrawnSinceAndOfACompletionOfAChoreDeletedSinceAnswerDeleted() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        _ = try server.person("ben")  // the account ana's follow request names
        let home = try server.createHousehold("Home", as: ana).householdID
        let due = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: 86_400))
        let chore = try #require(try server.chore("Dishes", in: home, as: ana, ["schedule": ["once": .string(due)]])["id"]?.stringValue)
        let instance = try #require(try server.allChanges(since: nil, as: ana).changes.first { $0.typename == "ChoreInstance" }?.id)
        let follow = "fol_0190bbbb-0000-7000-8000-0000000000a2"
        func entry(_ mutation: String, _ input: [String: JSON], _ selection: String = "clientMutationId") -> JSON {
            let type = mutation.prefix(1).uppercased() + mutation.dropFirst() + "Input"
            return ServerProcess.batchEntry("mutation($input: \(type)!) { \(mutation)(input: $input) { \(selection) } }", ServerProcess.input(input))
        }
        let request = entry("requestFollow", ["id": .string(follow), "username": "ben", "clientMutationId": "q-1"], "follow { id }")
        let complete = entry("completeChore", ["instanceId": .string(instance), "clientMutationId": "q-2"], "completion { id }")
        let first = ServerProcess.batchResults(try server.syncBatch([
            request, complete, entry("unfollow", ["followId": .string(follow), "clientMutationId": "q-3"]),
            entry("deleteChore", ["choreId": .string(chore), "clientMutationId": "q-4"]),
        ], as: ana))
        #expect(first.map { $0["isSuccess"] } == [true, true, true, true], "\(first)")

        let again = ServerProcess.batchResults(try server.syncBatch([request, complete], as: ana))
        let refusals = again.map { $0["response"]?["errors"]?[0]?["extensions"] }
        #expect(refusals.map { $0?["code"] } == ["NOT_FOUND", "NOT_FOUND"])
        #expect(refusals.map { $0?["reason"] } == ["DELETED", "DELETED"], "\(again)")
    }
}
