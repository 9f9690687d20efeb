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
