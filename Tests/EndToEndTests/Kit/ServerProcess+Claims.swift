import Foundation
import GraphQL

/// Claiming through the binary: `claimChore` and `releaseChore`.
extension ServerProcess {
    /// `claimChore` of `instanceID` as `person`, with `extra` input fields.
    func claimChore(_ instanceID: String, as person: Person, _ extra: [String: JSON] = [:]) throws -> GraphQLResponse {
        var input: [String: JSON] = ["instanceId": .string(instanceID)]
        input.merge(extra) { _, new in new }
        return try graphQL(
            """
            mutation($input: ClaimChoreInput!) { claimChore(input: $input) {
              instance { id status claimedAt isMaterialized claimant { id displayName } } claimant { id displayName } clientMutationId } }
            """,
            variables: Self.input(input), token: person.token)
    }

    /// `releaseChore` of `instanceID` as `person`.
    func releaseChore(_ instanceID: String, as person: Person) throws -> GraphQLResponse {
        try graphQL(
            """
            mutation($input: ReleaseChoreInput!) { releaseChore(input: $input) {
              instance { id claimedAt claimant { id } } releasedClaimant { id displayName } } }
            """,
            variables: Self.input(["instanceId": .string(instanceID)]), token: person.token)
    }
}

extension ServerProcess {
    /// Python helpers for live `choreEvents` tests (the server needs `--test-endpoints`): GraphQL over
    /// HTTP off the event loop, authenticated graphql-transport-ws connections (Python `websockets`), a
    /// subscription that returns once the server streams it (its bus subscription taken, so every change
    /// committed afterwards reaches it), and one line per message. `sys.argv[1]` is the server's base URL.
    static let choreEventsScript = """
        import asyncio, json, sys, urllib.request
        from websockets.asyncio.client import connect
        BASE = sys.argv[1]
        EVENTS = ("subscription($id: ID!, $after: ID) { choreEvents(householdId: $id, after: $after) { "
                  "sequence kind dismissesOffer member { displayName } instance { id claimant { displayName } chore { title } } } }")
        def post(query, variables, token):
            request = urllib.request.Request(
                BASE + "/graphql", data=json.dumps({"query": query, "variables": variables}).encode(),
                headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
            return json.loads(urllib.request.urlopen(request).read())
        async def call(query, variables, token):
            answer = await asyncio.get_running_loop().run_in_executor(None, post, query, variables, token)
            assert "errors" not in answer, answer
            return answer["data"]
        def metric(name):
            text = urllib.request.urlopen(BASE + "/metrics").read().decode()
            return int(float([line for line in text.splitlines() if line.startswith(name + " ")][0].split()[1]))
        async def connected(token):
            ws = await connect(BASE.replace("http", "ws") + "/graphql", subprotocols=["graphql-transport-ws"])
            await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer " + token}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            return ws
        async def subscribe(ws, operation, household, after=None):
            before = metric("hearth_graphql_active_subscriptions")
            await ws.send(json.dumps({"type": "subscribe", "id": operation,
                                      "payload": {"query": EVENTS, "variables": {"id": household, "after": after}}}))
            # A subscribe has no reply: the test endpoint answers once the subscription is live.
            live = await asyncio.get_running_loop().run_in_executor(
                None, lambda: urllib.request.urlopen(f"{BASE}/_test/subscriptions/{before + 1}").read().decode())
            assert live == str(before + 1), f"{live} subscriptions live, expected {before + 1}"
        async def message(ws):
            return json.loads(await asyncio.wait_for(ws.recv(), 10))
        def describe(who, reply):
            if reply["type"] != "next":
                errors = reply.get("payload") or [{}]
                return f"{who} {reply['type']} {errors[0].get('extensions', {}).get('code', '')}".rstrip()
            event = reply["payload"]["data"]["choreEvents"]
            instance = event["instance"] or {}
            claimant = (instance.get("claimant") or {}).get("displayName", "-")
            member = (event["member"] or {}).get("displayName", "-")
            title = (instance.get("chore") or {}).get("title", "-")
            return f"{who} {event['kind']} {title} member={member} claimant={claimant} dismisses={event['dismissesOffer']}"
        """
}
