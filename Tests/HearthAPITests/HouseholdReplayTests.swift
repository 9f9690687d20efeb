import GraphQL
import HearthServices
import Testing

/// Replayed household mutations through the API: the payload of a replay is the first run's,
/// whatever the replayed input names.
@Suite struct HouseholdReplayTests {
    @Test func aReplayedRevocationNamesTheInvitationItRevoked() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            func invite(_ email: String) async throws -> String {
                try await fixture.harness.service.inviteMember(.init(householdID: flat, email: email), viewer: ana, clientAddress: "127.0.0.1")
                    .invitation.id
            }
            let ben = try await invite("ben@example.com")
            let cara = try await invite("cara@example.com")
            func revoke(_ id: String) async throws -> JSON? {
                let result = try await fixture.execute(
                    "mutation($input: RevokeInvitationInput!) { revokeInvitation(input: $input) { revokedInvitationId clientMutationId } }",
                    ["input": ["invitationId": .string(id), "clientMutationId": "revoke-1"]], as: ana)
                #expect(result.errors.isEmpty, "\(result.errors)")
                return result.data?["revokeInvitation"]
            }
            #expect(try await revoke(ben) == ["revokedInvitationId": .string(ben), "clientMutationId": "revoke-1"])
            #expect(try await revoke(cara) == ["revokedInvitationId": .string(ben), "clientMutationId": "revoke-1"])
            let access = try await fixture.harness.service.access(viewer: ana, householdID: flat)
            #expect(try await fixture.harness.service.invitations(access).map(\.id) == [cara])
        }
    }
}
