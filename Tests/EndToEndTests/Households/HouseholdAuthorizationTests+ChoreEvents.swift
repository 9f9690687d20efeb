import Foundation
import GraphQL
import TestPython
import Testing

extension HouseholdAuthorizationTests {
    /// `choreEvents` tried from outside, over graphql-transport-ws (Python `websockets`): the outsider's
    /// subscription is refused with `NOT_FOUND`, exactly like one to a household that does not exist, and
    /// receives nothing; the member, the child and the admin each receive a claim of the fixture's chore
    /// (Ben, an eligible adult, as the dismissal of his offer; Kim, a child, not eligible, without it).
    @Test func choreEventsRefusesOutsidersWithNotFoundAndStreamsToMembersChildrenAndAdmins() throws {
        try Self.withFixture(["--test-endpoints"]) { server, f in
            let lines = try TestPython.runScript(ServerProcess.choreEventsScript + """

                async def main(household, instance, outsider, *people):
                    guessed = await refused(outsider, EVENTS, {"id": household})
                    invented = await refused(outsider, EVENTS, {"id": "hh_01900000-0000-7000-8000-000000000000"})
                    print("outsider", guessed.split(" ")[:2], guessed == invented)
                    sockets = await subscribed(people, EVENTS, {"id": household})
                    await call("mutation($input: ClaimChoreInput!) { claimChore(input: $input) { clientMutationId } }",
                               {"input": {"instanceId": instance}}, people[-1])
                    for who, ws in zip(("member", "child", "admin"), sockets):
                        print(describe(who, await message(ws)))
                asyncio.run(main(*sys.argv[2:]))
                """, ["http://127.0.0.1:\(server.port)", f.householdID, Self.dishesInstance(f), f.cara.token, f.ben.token, f.kim.token, f.ana.token])
            #expect(lines == [
                "outsider ['error', 'NOT_FOUND'] True",
                "member CLAIMED Dishes member=ana claimant=ana dismisses=True",
                "child CLAIMED Dishes member=ana claimant=ana dismisses=False",
                "admin CLAIMED Dishes member=ana claimant=ana dismisses=False",
            ], "\(lines)")
        }
    }
}
