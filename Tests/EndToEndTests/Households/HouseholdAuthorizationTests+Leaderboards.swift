import Foundation
import GraphQL
import TestPython
import Testing

extension HouseholdAuthorizationTests {
    /// The leaderboard operations of issue 15 (FR-56): reading a board is every member's, children
    /// included; choosing where its weeks start is the admins'.
    static let leaderboardOperations: [Operation] = [
        Operation(name: "leaderboard", adminOnly: false,
                  document: "query($id: ID!) { leaderboard(householdId: $id, period: MONTH) { totalCompletions entries { rank } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "updateHousehold firstWeekday", adminOnly: true,
                  document: "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { firstWeekday } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "firstWeekday": "SUNDAY"])
        },
    ]

    /// `leaderboardChanged` over a real graphql-transport-ws connection: an outsider's subscribe is answered
    /// with `NOT_FOUND` (as for an unknown household) and receives nothing, while a member, a child and an
    /// admin each receive the board the next completion produces.
    @Test func leaderboardChangedRefusesOutsidersWithNotFoundAndStreamsToMembersChildrenAndAdmins() throws {
        try Self.withFixture(["--test-endpoints"]) { server, f in
            let lines = try TestPython.runScript(ServerProcess.leaderboardScript + """

                async def main(flat, unknown, dishes, outsider, *members):
                    for operation, household in (("theirs", flat), ("nobodys", unknown)):
                        print("outsider", operation, *(await refused(outsider, BOARD, {"id": household})).split(" ")[:2])
                    sockets = await subscribed(members, BOARD, {"id": flat})
                    await call("mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }",
                               {"input": {"instanceId": dishes}}, members[-1])
                    for name, ws in zip(("member", "child", "admin"), sockets):
                        reply = await message(ws)
                        print(name, reply["type"], reply["payload"]["data"]["leaderboardChanged"]["totalCompletions"])
                asyncio.run(main(*sys.argv[2:]))
                """, [
                    "http://127.0.0.1:\(server.port)", f.householdID, "hh_01900000-0000-7000-8000-000000000000", Self.dishesInstance(f), f.cara.token,
                    f.ben.token, f.kim.token, f.ana.token,
                ])
            #expect(lines == ["outsider theirs error NOT_FOUND", "outsider nobodys error NOT_FOUND", "member next 1", "child next 1", "admin next 1"])
        }
    }
}
