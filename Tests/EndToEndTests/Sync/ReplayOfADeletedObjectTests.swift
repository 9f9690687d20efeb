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
}
