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

    @Test func aReplayedDeclineAnswersTheInvitationItDeclined() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            var declined: [JSON?] = []
            for _ in 0..<2 {
                let invitation = try await fixture.harness.service.inviteMember(
                    .init(householdID: flat, email: "ben@example.com"), viewer: ana, clientAddress: "127.0.0.1").invitation.id
                let result = try await fixture.execute(
                    "mutation($input: DeclineInvitationInput!) { declineInvitation(input: $input) { declinedInvitationId clientMutationId } }",
                    ["input": ["invitation": ["invitationId": .string(invitation)], "clientMutationId": "no-1"]], as: ben)
                #expect(result.errors.isEmpty, "\(result.errors)")
                declined.append(result.data?["declineInvitation"]?["declinedInvitationId"])
                #expect(result.data?["declineInvitation"]?["clientMutationId"] == "no-1")
            }
            #expect(declined[0] != nil && declined[1] == declined[0], "the replay names the first invitation")
            #expect(try await fixture.harness.service.myInvitations(viewer: ben).count == 1, "the second stays pending")
        }
    }

    @Test func theOnboardingAndTermsMutationsTakeAndEchoTheirClientMutationId() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let operations: [(String, String, [String: JSON])] = [
                ("visitOnboardingStep", "OnboardingStepInput", ["householdId": .string(flat), "step": "ECONOMY"]),
                ("skipOnboardingStep", "OnboardingStepInput", ["householdId": .string(flat), "step": "MEMBERS"]),
                ("completeOnboardingStep", "OnboardingStepInput", ["householdId": .string(flat), "step": "ADMIN"]),
                ("recordOnboardingStarted", "RecordOnboardingStartedInput", ["platform": "WEB"]),
                ("acceptTerms", "AcceptTermsInput", ["version": .string(fixture.harness.service.configuration.termsVersion)]),
                ("setAnalyticsConsent", "SetAnalyticsConsentInput", ["isConsented": true]),
            ]
            for (mutation, inputType, fields) in operations {
                var input = OrderedMap<String, JSON>()
                for (key, value) in fields { input[key] = value }
                input["clientMutationId"] = .string("\(mutation)-1")
                for _ in 0..<2 {
                    let result = try await fixture.execute(
                        "mutation($input: \(inputType)!) { \(mutation)(input: $input) { clientMutationId } }", ["input": .object(input)], as: ana)
                    #expect(result.errors.isEmpty, "\(mutation): \(result.errors)")
                    #expect(result.data?[mutation]?["clientMutationId"] == .string("\(mutation)-1"))
                }
            }
            let read = try await fixture.execute(
                "query($id: ID!) { household(id: $id) { onboarding { steps { step visitCount } } } }", ["id": .string(flat)], as: ana)
            guard case .array(let steps)? = read.data?["household"]?["onboarding"]?["steps"] else {
                Issue.record("no checklist: \(read.errors)")
                return
            }
            #expect(steps.first { $0["step"] == "ECONOMY" }?["visitCount"] == 1, "the replayed visit counted once")
            let replays = try await fixture.harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM mutation_replays") }
            #expect(replays == operations.count, "each remembered once")
        }
    }
}
