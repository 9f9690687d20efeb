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
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let cara = try server.person("cara")
        try server.createHousehold("Cara's home", as: cara)
        let f = try Self.fixture(server, ana: ana, ben: ben, cara: cara)
        let lines = try TestPython.runScript(ServerProcess.choreEventsScript + """

            async def refused(token, household):
                ws = await connected(token)
                await ws.send(json.dumps({"type": "subscribe", "id": "x", "payload": {"query": EVENTS, "variables": {"id": household}}}))
                reply = await message(ws)
                return f"{reply['type']} {reply['payload'][0]['extensions']['code']} {reply['payload'][0]['message']}"
            async def main(household, instance, outsider, *people):
                guessed = await refused(outsider, household)
                invented = await refused(outsider, "hh_01900000-0000-7000-8000-000000000000")
                print("outsider", guessed.split(" ")[:2], guessed == invented)
                sockets = []
                for index, token in enumerate(people):
                    ws = await connected(token)
                    await subscribe(ws, str(index), household)
                    sockets.append(ws)
                await call("mutation($input: ClaimChoreInput!) { claimChore(input: $input) { clientMutationId } }",
                           {"input": {"instanceId": instance}}, people[-1])
                for who, ws in zip(("member", "child", "admin"), sockets):
                    print(describe(who, await message(ws)))
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", f.householdID, Self.dishesInstance(f), cara.token, ben.token, f.kim.token, ana.token])
        #expect(lines == [
            "outsider ['error', 'NOT_FOUND'] True",
            "member CLAIMED Dishes member=ana claimant=ana dismisses=True",
            "child CLAIMED Dishes member=ana claimant=ana dismisses=False",
            "admin CLAIMED Dishes member=ana claimant=ana dismisses=False",
        ], "\(lines)")
    }
}
