import Foundation
import TestPython
import Testing

/// Subscriptions that replay history before going live (`choreEvents` resumed after a `sequence`,
/// `syncDeltas`) owe every device its replay, even when the same user's other device asked for exactly
/// the same thing a moment earlier: identical live subscriptions share one execution
/// (`RealtimeTests`), but a device that subscribes after a replaying one delivered gets its own, so it
/// misses nothing. Real graphql-transport-ws clients (Python `websockets`), two devices of one user.
@Suite struct ReplayingSubscriptionsTests {
    @Test func aSecondDeviceResumingChoreEventsFromTheSameCursorReceivesTheReplayTooThenTheLiveEvents() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let cursor = try #require(try server.databaseText("SELECT CAST(MAX(sequence) AS TEXT) FROM change_log"))
        let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """

            EVENTS = "subscription($id: ID!, $after: ID) { choreEvents(householdId: $id, after: $after) { kind chore { title } } }"
            CREATE = "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }"
            def chore(household, title):
                return {"input": {"householdId": household, "title": title, "schedule": {"once": "2036-03-01T09:00:00Z"}}}
            async def titles(ws, count):
                # The chore titles of the next `count` CHORE_CREATED events on `ws`.
                found = []
                while len(found) < count:
                    reply = await message(ws)
                    assert reply["type"] == "next", reply
                    event = reply["payload"]["data"]["choreEvents"]
                    if event["kind"] == "CHORE_CREATED":
                        found.append(event["chore"]["title"])
                return found
            async def main(ana, household, cursor):
                for title in ("One", "Two"):
                    await call(CREATE, chore(household, title), ana)
                variables = {"id": household, "after": cursor}
                phone = await connected(ana)
                await subscribe_to(phone, "p", EVENTS, variables)
                print("phone", await titles(phone, 2))
                # The same document and variables, after the phone's stream has delivered.
                tablet = await connected(ana)
                await subscribe_to(tablet, "t", EVENTS, variables)
                print("tablet", await titles(tablet, 2))
                await call(CREATE, chore(household, "Three"), ana)
                print("live", await titles(phone, 1), await titles(tablet, 1))
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", ana.token, householdID, cursor])
        #expect(lines == ["phone ['One', 'Two']", "tablet ['One', 'Two']", "live ['Three'] ['Three']"])
    }

    @Test func aSecondDeviceStartingSyncDeltasWithoutACursorReceivesTheFullResyncToo() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """

            DELTAS = "subscription { syncDeltas { changes { typename node { ... on Habit { title } } } hasMore mustResync } }"
            HABIT = "mutation($input: CreateHabitInput!) { createHabit(input: $input) { habit { id } } }"
            async def habits(ws):
                # The habit titles of the deliveries on `ws` up to one with nothing more to come.
                found = []
                while True:
                    reply = await message(ws)
                    assert reply["type"] == "next", reply
                    delta = reply["payload"]["data"]["syncDeltas"]
                    assert not delta["mustResync"], delta
                    found += [change["node"]["title"] for change in delta["changes"] if change["typename"] == "Habit" and change["node"]]
                    if not delta["hasMore"]:
                        return found
            async def main(ana):
                await call(HABIT, {"input": {"title": "Walk", "startsOn": "2026-01-01", "plan": ["MONDAY"]}}, ana)
                phone = await connected(ana)
                await subscribe_to(phone, "p", DELTAS, {})
                print("phone", await habits(phone))
                # The same subscription, after the phone's resync was delivered.
                tablet = await connected(ana)
                await subscribe_to(tablet, "t", DELTAS, {})
                print("tablet", await habits(tablet))
                await call(HABIT, {"input": {"title": "Swim", "startsOn": "2026-01-01", "plan": ["FRIDAY"]}}, ana)
                print("live", await habits(phone), await habits(tablet))
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", ana.token])
        #expect(lines == ["phone ['Walk']", "tablet ['Walk']", "live ['Swim'] ['Swim']"])
    }
}
