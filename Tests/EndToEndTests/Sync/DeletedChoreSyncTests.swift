import Foundation
import GraphQL
import Testing

/// Issue 17: deleting a chore, through `changes`. Its instances are no longer found (completed ones
/// too), so a device gets a tombstone for each and a full resync lists none; its completions stay
/// (history) without their instance, so a device gets them again as they are now. Found by the
/// convergence simulation: the delete touched the chore alone, and a full resync listed the
/// deleted chore's instances as tombstones.
@Suite struct DeletedChoreSyncTests {
    @Test func deletingAChoreTombstonesItsInstancesAndUpdatesItsCompletions() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let home = try server.createHousehold("Home", as: ana).householdID
        let due = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: 86_400))
        let chore = try #require(try server.chore("Dishes", in: home, as: ana, ["schedule": ["once": .string(due)]])["id"]?.stringValue)
        let node = "id ... on ChoreCompletion { instance { id } }"
        let instance = try #require(try server.allChanges(since: nil, as: ana).changes.first { $0.typename == "ChoreInstance" }?.id)
        let completed = try server.completeChore(instance, as: ana)
        let completion = try #require(completed.data?["completeChore"]?["completion"]?["id"]?.stringValue, "\(completed.json)")
        let cursor = try server.syncCursor(as: ana)

        let deleted = try server.graphQL(
            "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["choreId": .string(chore)]), token: ana.token)
        try #require(deleted.errorCode == nil, "\(deleted.json)")

        let changes = try server.allChanges(since: cursor, node: node, as: ana).changes
        #expect(changes.first { $0.id == instance }?.operation == "DELETE")
        #expect(changes.first { $0.id == chore }?.operation == "DELETE")
        let history = try #require(changes.first { $0.id == completion }, "\(changes)")
        #expect(history.operation == "UPSERT" && history.node?["instance"] == .null)
        let full = try server.allChanges(since: nil, node: node, as: ana).changes
        #expect(full.allSatisfy { $0.operation == "UPSERT" }, "\(full.filter { $0.operation != "UPSERT" })")
        #expect(!full.contains { $0.id == instance } && full.contains { $0.id == completion })
    }
}
