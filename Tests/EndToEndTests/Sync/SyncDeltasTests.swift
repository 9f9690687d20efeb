import Foundation
import GraphQL
import TestPython
import Testing

/// Issue 17's `syncDeltas(since:)` through the binary, with a real graphql-transport-ws client
/// (Python `websockets`): the backlog after the cursor, then live changes, each once, following the
/// subscriber's scopes as they change; and the resync signal for a cursor the log no longer covers.
@Suite struct SyncDeltasTests {
    private static let script = ServerProcess.webSocketPeerScript + """
        QUERY = '''subscription($since: String) { syncDeltas(since: $since) {
          changes { operation id typename node { ... on Habit { title } ... on HabitEvent { comment } } } endCursor mustResync } }'''
        names = {}
        async def show(ws):
            # One delivery: each change as "OPERATION Type name", the name from the node or, for a tombstone, as last seen.
            reply = await message(ws)
            assert reply["type"] == "next", reply
            delta = reply["payload"]["data"]["syncDeltas"]
            parts = []
            for change in delta["changes"]:
                node = change["node"] or {}
                name = node.get("title") or node.get("comment") or names.get(change["id"]) or change["typename"]
                names[change["id"]] = name
                parts.append(f'{change["operation"]} {change["typename"]} {name}')
            print(" | ".join(parts + (["RESYNC"] if delta["mustResync"] else [])))
        HABIT = "mutation($input: CreateHabitInput!) { createHabit(input: $input) { habit { id } } }"
        EVENT = "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { habitEvent { id } } }"
        async def main(mode, ana, ben, cursor, run):
            ws = await connected(ana)
            if mode == "expired":
                # The stream ends at once: no waiting for it to be counted live.
                await ws.send(json.dumps({"type": "subscribe", "id": "s", "payload": {"query": QUERY, "variables": {"since": cursor}}}))
                await show(ws)
                print((await message(ws))["type"])
                return
            await subscribe_to(ws, "s", QUERY, {"since": cursor})
            await show(ws)
            await call(HABIT, {"input": {"title": "Walk", "startsOn": "2026-01-01", "plan": ["MONDAY"]}}, ana)
            await show(ws)
            follow = (await call("mutation($input: RequestFollowInput!) { requestFollow(input: $input) { follow { id } } }",
                                 {"input": {"username": "ben"}}, ana))["requestFollow"]["follow"]["id"]
            await show(ws)
            await call("mutation($input: AcceptFollowRequestInput!) { acceptFollowRequest(input: $input) { clientMutationId } }",
                       {"input": {"followId": follow}}, ben)
            await show(ws)
            await call(EVENT, {"input": {"habitId": run, "comment": "swim"}}, ben)
            await show(ws)
            await call("mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { clientMutationId } }",
                       {"input": {"habitId": run, "visibility": "PRIVATE"}}, ben)
            await show(ws)
        asyncio.run(main(*sys.argv[2:]))
        """

    @Test func theBacklogThenLiveChangesArriveOnceEachFollowingTheSubscribersScopes() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let run = try server.habit("Run", as: ben)
        _ = try server.habitEvent(of: run, as: ben, ["comment": "lap"])
        let cursor = try server.syncCursor(as: ana)
        _ = try server.habit("Read", as: ana)
        let lines = try TestPython.runScript(Self.script, ["http://127.0.0.1:\(server.port)", "live", ana.token, ben.token, cursor, run])
        #expect(lines == [
            "UPSERT Habit Read",
            "UPSERT Habit Walk",
            "UPSERT Follow Follow",
            "UPSERT Follow Follow | UPSERT Habit Run | UPSERT HabitEvent lap",
            "UPSERT Habit Run | UPSERT HabitEvent swim",
            "DELETE Habit Run | DELETE HabitEvent lap | DELETE HabitEvent swim",
        ])
    }

    @Test func aCursorTheLogNoLongerCoversDeliversMustResyncAndEndsTheStream() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let cursor = try server.syncCursor(as: ana)
        _ = try server.habit("Read", as: ana)
        try server.databaseWrite("UPDATE change_log_retention SET pruned_through = (SELECT max(sequence) FROM change_log)")
        let lines = try TestPython.runScript(Self.script, ["http://127.0.0.1:\(server.port)", "expired", ana.token, ben.token, cursor, ""])
        #expect(lines == ["RESYNC", "complete"])
    }
}
