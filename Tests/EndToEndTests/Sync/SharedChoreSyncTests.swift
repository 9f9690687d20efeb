import Foundation
import GraphQL
import TestPython
import Testing

/// Issue 17 for shares of personal chores (`share:<id>` scopes) through the binary: a recipient
/// receives the shared chores through `changes` and `syncDeltas` once the share reaches them, as
/// they see them, and tombstones when it is revoked; nobody else receives anything of them.
@Suite struct SharedChoreSyncTests {
    /// `changes` nodes read with the chore's title.
    private static let node = "id ... on Chore { title }"

    /// The changes as "OPERATION Typename title" (the title of an upsert of a chore), in order.
    private static func lines(_ changes: [ServerProcess.SyncChange]) -> [String] {
        changes.map { change in
            [change.operation, change.typename ?? "", change.node?["title"]?.stringValue].compactMap(\.self).joined(separator: " ")
        }
    }

    @Test func aRecipientReceivesWhatTheShareShowsAndATombstoneWhenItIsRevoked() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben"), cara = try server.person("cara")
        let run = try #require(try server.chore("Run", in: nil, as: ana)["id"]?.stringValue)
        let diary = try #require(try server.chore("Diary", in: nil, as: ana)["id"]?.stringValue)
        let start = try server.syncCursor(as: ben)
        let shareID = try #require(server.share(["choreIds": [.string(run)]], with: ["email": "ben@example.com"], as: ana)["id"]?.stringValue)
        // Pending: nothing yet.
        var read = try server.allChanges(since: start, node: Self.node, as: ben)
        #expect(read.changes.isEmpty)
        #expect(try server.answerShare("acceptShare", shareID, as: ben).errorCode == nil)
        read = try server.allChanges(since: read.cursor, node: Self.node, as: ben)
        #expect(Set(Self.lines(read.changes)) == ["UPSERT ChoreShare", "UPSERT Chore Run"])
        #expect(Set(read.changes.map(\.id)) == [shareID, run])

        // The owner's edits of the shared chore arrive; of her other chores, nothing.
        #expect(try server.updateChore(["choreId": .string(run), "title": "Run 5 km"], as: ana).errorCode == nil)
        #expect(try server.updateChore(["choreId": .string(diary), "title": "Journal"], as: ana).errorCode == nil)
        read = try server.allChanges(since: read.cursor, node: Self.node, as: ben)
        #expect(Self.lines(read.changes) == ["UPSERT Chore Run 5 km"] && read.changes.map(\.id) == [run])

        // The full resync holds it; someone it does not reach sees none of it.
        let full = try server.allChanges(since: nil, as: ben).changes.map(\.id)
        #expect(full.contains(run) && full.contains(shareID) && !full.contains(diary))
        let others = try server.allChanges(since: nil, as: cara).changes.map(\.id)
        #expect(!others.contains(run) && !others.contains(shareID) && !others.contains(diary))

        #expect(try server.answerShare("revokeShare", shareID, as: ana).errorCode == nil)
        read = try server.allChanges(since: read.cursor, node: Self.node, as: ben)
        #expect(Set(Self.lines(read.changes)) == ["DELETE ChoreShare", "DELETE Chore"])
        #expect(Set(read.changes.map(\.id)) == [shareID, run])
    }

    @Test func theOwnersCompletionReachesTheRecipientAsTheInstanceAndTheCompletion() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let (run, instance) = try SharingTests.personalChore(server, "Run", of: ana)
        let shareID = try #require(server.share(["choreIds": [.string(run)]], with: ["email": "ben@example.com"], as: ana)["id"]?.stringValue)
        #expect(try server.answerShare("acceptShare", shareID, as: ben).errorCode == nil)
        let full = try server.allChanges(since: nil, as: ben)
        #expect(Set(full.changes.map(\.id)).isSuperset(of: [shareID, run, instance]))
        let completion = try #require(try server.completeChore(instance, as: ana).data?["completeChore"]?["completion"]?["id"]?.stringValue)
        let read = try server.allChanges(since: full.cursor, node: "id ... on ChoreInstance { status } ... on ChoreCompletion { choreTitle }", as: ben)
        // The instance, the completion, and the chore (planning touches it), each as Ben sees it.
        #expect(Set(read.changes.map(\.id)) == [instance, completion, run] && read.changes.allSatisfy { $0.operation == "UPSERT" })
        #expect(read.changes.first { $0.id == instance }?.node?["status"] == "COMPLETED")
        #expect(read.changes.first { $0.id == completion }?.node?["choreTitle"] == "Run")
    }

    private static let script = ServerProcess.webSocketPeerScript + """
        QUERY = '''subscription($since: String) { syncDeltas(since: $since) {
          changes { operation typename node { ... on Chore { title } } } endCursor mustResync } }'''
        async def show(ws):
            # One delivery: its changes as "OPERATION Type title", sorted (a page lists a row's objects by id).
            reply = await message(ws)
            assert reply["type"] == "next", reply
            parts = [" ".join(filter(None, [c["operation"], c["typename"], (c["node"] or {}).get("title")]))
                     for c in reply["payload"]["data"]["syncDeltas"]["changes"]]
            print(" | ".join(sorted(parts)))
        async def main(ana, ben, cursor, run, share):
            ws = await connected(ben)
            await subscribe_to(ws, "s", QUERY, {"since": cursor})
            await show(ws)
            await call("mutation($input: AcceptShareInput!) { acceptShare(input: $input) { clientMutationId } }",
                       {"input": {"shareId": share}}, ben)
            await show(ws)
            await call("mutation($input: UpdateChoreInput!) { updateChore(input: $input) { clientMutationId } }",
                       {"input": {"choreId": run, "title": "Run 5 km"}}, ana)
            await show(ws)
            await call("mutation($input: RevokeShareInput!) { revokeShare(input: $input) { clientMutationId } }",
                       {"input": {"shareId": share}}, ana)
            await show(ws)
        asyncio.run(main(*sys.argv[2:]))
        """

    @Test func syncDeltasCarriesTheShareLive() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let run = try #require(try server.chore("Run", in: nil, as: ana)["id"]?.stringValue)
        // Before the cursor: a backlog of one chore of Ben's own, so the first delivery is not empty.
        let cursor = try server.syncCursor(as: ben)
        _ = try server.chore("Read", in: nil, as: ben)
        let shareID = try #require(server.share(["choreIds": [.string(run)]], with: ["email": "ben@example.com"], as: ana)["id"]?.stringValue)
        let lines = try TestPython.runScript(Self.script, ["http://127.0.0.1:\(server.port)", ana.token, ben.token, cursor, run, shareID])
        #expect(lines == [
            "UPSERT Chore Read",
            "UPSERT Chore Run | UPSERT ChoreShare",
            "UPSERT Chore Run 5 km",
            "DELETE Chore | DELETE ChoreShare",
        ])
    }
}
