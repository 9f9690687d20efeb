import Foundation
import GraphQL
import TestPython
import Testing

/// `Subscription.householdEvents` and household ids through `node`/`nodes`, through the binary with
/// real graphql-transport-ws clients (Python `websockets`): members receive membership changes as they
/// happen, until their membership ends; members of another household can neither subscribe nor
/// receive anything, and their ids of this household answer null.
@Suite struct HouseholdEventsTests {
    /// Python helpers: GraphQL over HTTP off the event loop, authenticated WebSocket connections, a
    /// subscription that returns once the server streams it (its bus subscription taken, so every change
    /// committed afterwards reaches it), and one line per message.
    static let helpers = ServerProcess.webSocketPeerScript + """
        EVENTS = ("subscription($id: ID!) { householdEvents(householdId: $id) { "
                  "kind householdId memberId incompleteTasks missedEvents household { name } member { role status } } }")
        def subscribers():
            return metric("hearth_event_bus_subscribers")
        async def subscribe(ws, operation, household):
            await subscribe_to(ws, operation, EVENTS, {"id": household})
        def describe(who, reply, ids):
            if reply["type"] != "next":
                return f"{who} {reply['type']}"
            event = reply["payload"]["data"]["householdEvents"]
            household = (event["household"] or {}).get("name")
            member = (event["member"] or {}).get("role")
            if (event["member"] or {}).get("status") == "DEPARTED":
                member += "/DEPARTED"
            concerned = ids.get(event["memberId"]) if event["kind"].startswith("MEMBER_") else "-"
            return (f"{who} {event['kind']} {ids.get(event['householdId'])} {concerned} "
                    f"{event['incompleteTasks']} {household} {member} {event['missedEvents']}")
        """

    @Test func FR16_FR15_FR09_aMemberReceivesMembershipChangesAsTheyHappenUntilTheirMembershipEnds() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (flat, anaInFlat) = try server.createHousehold("Flat", as: ana)
        let lines = try TestPython.runScript(Self.helpers + """

            async def main(ana, ben, flat, ana_member):
                ids = {flat: "flat", ana_member: "ana", None: "-"}
                baseline = subscribers()
                ana_ws = await connected(ana)
                await subscribe(ana_ws, "a", flat)
                invited = await call(
                    "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteToken invitation { id } } }",
                    {"input": {"householdId": flat, "email": "ben@example.com"}}, ana)
                reply = await message(ana_ws)
                ids[reply["payload"]["data"]["householdEvents"]["memberId"]] = "ben"
                print(describe("ana", reply, ids))
                joined = await call(
                    "mutation($input: AcceptInvitationInput!) { acceptInvitation(input: $input) { member { id } } }",
                    {"input": {"invitation": {"token": invited["inviteMember"]["inviteToken"]}}}, ben)
                ben_member = joined["acceptInvitation"]["member"]["id"]
                ids[ben_member] = "ben"
                print(describe("ana", await message(ana_ws), ids))
                ben_ws = await connected(ben)
                await subscribe(ben_ws, "b", flat)
                await call("mutation($input: ChangeMemberRoleInput!) { changeMemberRole(input: $input) { clientMutationId } }",
                           {"input": {"memberId": ben_member, "role": "ADMIN"}}, ana)
                print(describe("ana", await message(ana_ws), ids))
                print(describe("ben", await message(ben_ws), ids))
                await call("mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { clientMutationId } }",
                           {"input": {"householdId": flat, "name": "City Flat"}}, ana)
                print(describe("ana", await message(ana_ws), ids))
                print(describe("ben", await message(ben_ws), ids))
                await call("mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { clientMutationId } }",
                           {"input": {"householdId": flat, "incompleteTasks": "UNASSIGN"}}, ben)
                print(describe("ana", await message(ana_ws), ids))
                print(describe("ben", await message(ben_ws), ids))
                print(describe("ben", await message(ben_ws), ids))
                await call("mutation($input: DeleteHouseholdInput!) { deleteHousehold(input: $input) { clientMutationId } }",
                           {"input": {"householdId": flat, "confirmName": "City Flat"}}, ana)
                print(describe("ana", await message(ana_ws), ids))
                print(describe("ana", await message(ana_ws), ids))
                print("bus subscribers left", subscribers() - baseline)
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", ana.token, ben.token, flat, anaInFlat])
        #expect(lines == [
            "ana MEMBER_INVITED flat ben None Flat MEMBER False",
            "ana MEMBER_JOINED flat ben None Flat MEMBER False",
            "ana MEMBER_ROLE_CHANGED flat ben None Flat ADMIN False",
            "ben MEMBER_ROLE_CHANGED flat ben None Flat ADMIN False",
            "ana HOUSEHOLD_UPDATED flat - None City Flat None False",
            "ben HOUSEHOLD_UPDATED flat - None City Flat None False",
            // When the events are delivered Ben's member record is history for Ana (it stays, departed), and the
            // household is gone for him.
            "ana MEMBER_LEFT flat ben UNASSIGN City Flat ADMIN/DEPARTED False",
            "ben MEMBER_LEFT flat ben UNASSIGN None None False",
            "ben complete",
            "ana HOUSEHOLD_DELETED flat - None None None False",
            "ana complete",
            "bus subscribers left 0",
        ])
    }

    @Test func FR10_aMemberOfAnotherHouseholdCannotSubscribeEvenToARunningSubscriptionOfItsMembers() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let cleo = try server.person("cleo")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        try server.createHousehold("Cabin", as: cleo)
        let lines = try TestPython.runScript(Self.helpers + """

            async def main(ana, cleo, flat, unknown):
                ana_ws = await connected(ana)
                await subscribe(ana_ws, "a", flat)
                cleo_ws = await connected(cleo)
                # The very document and variables of Ana's running subscription: shared only within one user.
                for household in (flat, unknown):
                    await cleo_ws.send(json.dumps({"type": "subscribe", "id": household,
                                                   "payload": {"query": EVENTS, "variables": {"id": household}}}))
                    reply = await message(cleo_ws)
                    error = reply["payload"][0]
                    print(reply["type"], reply["id"] == household, error["extensions"]["code"], error["message"])
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", ana.token, cleo.token, flat, "01J000000000000000000000UNKNOWN"])
        #expect(lines == [
            "error True NOT_FOUND No such household.",
            "error True NOT_FOUND No such household.",
        ])
    }

    @Test func FR10_aSubscriberOfAnotherHouseholdNeverReceivesThisHouseholdsEvents() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let cleo = try server.person("cleo")
        let (flat, _) = try server.createHousehold("Flat", as: ana)
        let (cabin, _) = try server.createHousehold("Cabin", as: cleo)
        let lines = try TestPython.runScript(Self.helpers + """

            RENAME = "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { clientMutationId } }"
            async def main(ana, cleo, flat, cabin):
                ids = {flat: "flat", cabin: "cabin", None: "-"}
                ana_ws, cleo_ws = await connected(ana), await connected(cleo)
                await subscribe(ana_ws, "a", flat)
                await subscribe(cleo_ws, "c", cabin)
                await call(RENAME, {"input": {"householdId": flat, "name": "City Flat"}}, ana)
                print(describe("ana", await message(ana_ws), ids))
                # Committed after Flat's rename: had that reached Cleo, it would come first.
                await call(RENAME, {"input": {"householdId": cabin, "name": "Log Cabin"}}, cleo)
                print(describe("cleo", await message(cleo_ws), ids))
            asyncio.run(main(*sys.argv[2:]))
            """, ["http://127.0.0.1:\(server.port)", ana.token, cleo.token, flat, cabin])
        #expect(lines == [
            "ana HOUSEHOLD_UPDATED flat - None City Flat None False",
            "cleo HOUSEHOLD_UPDATED cabin - None Log Cabin None False",
        ])
    }

    @Test func FR10_householdAndMemberIdsOfAnotherHouseholdAreNullThroughNodeAndNodes() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--test-endpoints"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let cleo = try server.person("cleo")
        let (flat, anaInFlat) = try server.createHousehold("Flat", as: ana)
        let (cabin, cleoInCabin) = try server.createHousehold("Cabin", as: cleo)
        let read = try server.graphQL(
            """
            query($ids: [ID!]!, $cabin: ID!) {
              nodes(ids: $ids) { __typename id }
              node(id: $cabin) { id }
            }
            """,
            variables: ["ids": .array([flat, anaInFlat, cabin, cleoInCabin].map { .string($0) }), "cabin": .string(cabin)],
            token: ana.token)
        #expect(read.json["errors"] == nil)
        let nodes = try #require(read.data?["nodes"], "\(read.json)")
        #expect(nodes[0]?["__typename"] == "Household")
        #expect(nodes[0]?["id"]?.stringValue == flat)
        #expect(nodes[1]?["__typename"] == "Member")
        #expect(nodes[1]?["id"]?.stringValue == anaInFlat)
        #expect(nodes[2] == .null)
        #expect(nodes[3] == .null)
        #expect(read.data?["node"] == .null)
    }
}
