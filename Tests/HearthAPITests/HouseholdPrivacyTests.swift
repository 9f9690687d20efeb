import GraphQL
import HearthServices
import Testing

/// What one member of a household sees of the others through the API: the household's people,
/// but not the private fields of their accounts, the ages of its children, or the addresses
/// its admins invited.
@Suite struct HouseholdPrivacyTests {
    static let query = """
        query($id: ID!) {
          household(id: $id) {
            invitations { email }
            members {
              edges {
                node {
                  displayName age isViewer
                  user { username email isEmailConfirmed pendingEmail signInMethods timeZone hasAnalyticsConsent }
                }
              }
            }
          }
        }
        """

    /// The members of `householdID` as `viewer` reads them, by display name.
    private func members(_ fixture: HouseholdsAPIFixture, _ householdID: String, as viewer: Viewer) async throws -> (JSON?, [String: JSON]) {
        let result = try await fixture.execute(Self.query, ["id": .string(householdID)], as: viewer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let household = result.data?["household"]
        guard case .array(let edges)? = household?["members"]?["edges"] else { return (household?["invitations"], [:]) }
        var byName: [String: JSON] = [:]
        for edge in edges {
            if case .string(let name)? = edge["node"]?["displayName"] { byName[name] = edge["node"] }
        }
        return (household?["invitations"], byName)
    }

    @Test func membersSeeEachOtherButNotAccountsPrivateFieldsChildrensAgesOrInvitedAddresses() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await fixture.join(flat, ben, as: "Ben")
            _ = try await fixture.harness.service.addMember(householdID: flat, .init(kind: .shadow, displayName: "Teen", age: 15), viewer: ana)
            _ = try await fixture.harness.service.inviteMember(
                .init(householdID: flat, email: "cara@example.com", displayName: "Cara"), viewer: ana, clientAddress: "127.0.0.1")

            let (invitationsForBen, seenByBen) = try await members(fixture, flat, as: ben)
            #expect(invitationsForBen == [])
            #expect(seenByBen["Teen"]?["age"] == .null)
            let anaForBen = try #require(seenByBen["ana"]?["user"])
            #expect(anaForBen["username"] == "ana")
            for field in ["email", "isEmailConfirmed", "pendingEmail", "signInMethods", "timeZone", "hasAnalyticsConsent"] {
                #expect(anaForBen[field] == .null, "ana's \(field) shown to ben")
            }
            #expect(seenByBen["Ben"]?["user"]?["email"] == "ben@example.com")
            #expect(seenByBen["Ben"]?["isViewer"] == true)

            let (invitationsForAna, seenByAna) = try await members(fixture, flat, as: ana)
            #expect(invitationsForAna == [["email": "cara@example.com"]])
            #expect(seenByAna["Teen"]?["age"] == 15)
            #expect(seenByAna["Ben"]?["user"]?["email"] == .null)
            #expect(seenByAna["Cara"]?["user"] == .null)
        }
    }
}
