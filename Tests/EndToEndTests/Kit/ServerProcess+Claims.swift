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
    /// Python helpers for live `choreEvents` tests (the server needs `--test-endpoints`): those of
    /// ``webSocketPeerScript``, a `choreEvents` subscription (`subscribe`, resuming `after` a
    /// sequence when given) and one line per message (`describe`).
    static let choreEventsScript = webSocketPeerScript + """
        EVENTS = ("subscription($id: ID!, $after: ID) { choreEvents(householdId: $id, after: $after) { "
                  "sequence kind dismissesOffer member { displayName } instance { id claimant { displayName } chore { title } } } }")
        async def subscribe(ws, operation, household, after=None):
            await subscribe_to(ws, operation, EVENTS, {"id": household, "after": after})
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
