import Foundation
import GraphQL
import Testing

/// Household scoping, tried from outside: every household operation of issue 6 and every chore
/// and token-economy operation of issue 14 is called by a non-member (with ids of the household, as
/// if guessed), by a member, by a child with a login of their own and by an admin. A non-member
/// always gets `NOT_FOUND`, never `FORBIDDEN`, so existence does not leak; a member and a child get
/// `FORBIDDEN`, with a reason naming the rule, exactly for the admin-only operations (for chores, under the default rules: only
/// admins create, edit and delete); an admin is never refused for authorization reasons
/// (business rules such as the last admin may still apply).
@Suite struct HouseholdAuthorizationTests {
    /// The people and objects one table row is tried on: a fresh household A of `ana` (admin)
    /// with `ben` (member, joined by invitation), a pending invitation, a consent and a child.
    struct Fixture {
        let ana: ServerProcess.Person
        let ben: ServerProcess.Person
        let cara: ServerProcess.Person
        /// A child (14) whose member record is linked to an account of her own.
        let kim: ServerProcess.Person
        let householdID: String
        let anaMemberID: String
        let benMemberID: String
        let childMemberID: String
        let invitationID: String
        let consentID: String
        /// A chore, a tag and a saved preset of the household.
        let choreID: String
        /// A `SINGLE_ACTION` chore of the child's, due 2036-03-01T09:00:00Z (the kit's default).
        let childsChoreID: String
        let tagID: String
        let presetID: String
        /// A free reward of the store, and a pending request for it by ana for the child.
        let rewardID: String
        let redemptionID: String
        /// Kim's completion of a chore, waiting for approval.
        let completionID: String
    }

    /// Who calls.
    enum Caller { case outsider, member, child, admin }

    /// One operation: its document and variables for a caller.
    struct Operation: CustomStringConvertible, Sendable {
        let name: String
        let adminOnly: Bool
        let document: String
        let variables: @Sendable (Fixture, Caller) -> [String: JSON]
        /// Whether a child is refused (`FORBIDDEN`) where an adult member is not: what a chore's
        /// completion rule decides for roles, which admit adults only, and acting for another
        /// member (recording a completion, asking for a reward), which is for adults.
        var refusesChildren = false
        var description: String { name }
    }


    static let operations: [Operation] = [
        Operation(name: "household", adminOnly: false, document: "query($id: ID!) { household(id: $id) { id name } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "household.members", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { members(first: 10) { totalCount edges { node { id } } } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "household.economy", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { economy { currencyPerToken } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "household.onboarding", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { onboarding { nextStep } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "updateHousehold", adminOnly: true,
                  document: "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { id } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "name": "Renamed"])
        },
        Operation(name: "setActiveHousehold", adminOnly: false,
                  document: "mutation($input: SetActiveHouseholdInput!) { setActiveHousehold(input: $input) { household { id } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID)])
        },
        Operation(name: "inviteMember", adminOnly: true,
                  document: "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { invitation { id } } }") { f, caller in
            ServerProcess.input(["householdId": .string(f.householdID), "email": .string("new-\(caller)@example.com")])
        },
        Operation(name: "inviteCoParent", adminOnly: true,
                  document: "mutation($input: InviteCoParentInput!) { inviteCoParent(input: $input) { invitation { id } } }") { f, caller in
            ServerProcess.input(["householdId": .string(f.householdID), "email": .string("co-\(caller)@example.com")])
        },
        Operation(name: "resendInvitation", adminOnly: true,
                  document: "mutation($input: ResendInvitationInput!) { resendInvitation(input: $input) { invitation { id } } }") { f, _ in
            ServerProcess.input(["invitationId": .string(f.invitationID)])
        },
        Operation(name: "revokeInvitation", adminOnly: true,
                  document: "mutation($input: RevokeInvitationInput!) { revokeInvitation(input: $input) { revokedInvitationId } }") { f, _ in
            ServerProcess.input(["invitationId": .string(f.invitationID)])
        },
        Operation(name: "changeMemberRole", adminOnly: true,
                  document: "mutation($input: ChangeMemberRoleInput!) { changeMemberRole(input: $input) { member { id role } } }") { f, _ in
            ServerProcess.input(["memberId": .string(f.benMemberID), "role": "MEMBER"])
        },
        Operation(name: "removeMember", adminOnly: true,
                  document: "mutation($input: RemoveMemberInput!) { removeMember(input: $input) { removedMemberId } }") { f, _ in
            ServerProcess.input(["memberId": .string(f.childMemberID), "incompleteTasks": "UNASSIGN"])
        },
        Operation(name: "recordParentalConsent", adminOnly: true,
                  document: "mutation($input: RecordParentalConsentInput!) { recordParentalConsent(input: $input) { consent { id } } }") { f, _ in
            ServerProcess.input([
                "householdId": .string(f.householdID), "method": "EMAIL_PLUS", "path": "SUPERVISED",
                "attestation": "I am the parent and consent.", "termsVersion": "2026-11-01",
            ])
        },
        Operation(name: "addMember", adminOnly: true,
                  document: "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "kind": "SHADOW", "displayName": "Teen", "age": 15])
        },
        Operation(name: "updateMember (a child)", adminOnly: true,
                  document: "mutation($input: UpdateMemberInput!) { updateMember(input: $input) { member { id } } }") { f, _ in
            ServerProcess.input(["memberId": .string(f.childMemberID), "displayName": "Kiddo"])
        },
        Operation(name: "updateEconomySettings", adminOnly: true,
                  document: "mutation($input: UpdateEconomySettingsInput!) { updateEconomySettings(input: $input) { economy { currencyPerToken } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "currencyPerToken": "0.25"])
        },
        Operation(name: "completeOnboardingStep", adminOnly: true,
                  document: "mutation($input: OnboardingStepInput!) { completeOnboardingStep(input: $input) { onboarding { nextStep } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "step": "MEMBERS"])
        },
        Operation(name: "skipOnboardingStep", adminOnly: true,
                  document: "mutation($input: OnboardingStepInput!) { skipOnboardingStep(input: $input) { onboarding { nextStep } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "step": "ECONOMY"])
        },
        Operation(name: "visitOnboardingStep", adminOnly: true,
                  document: "mutation($input: OnboardingStepInput!) { visitOnboardingStep(input: $input) { onboarding { nextStep } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "step": "MEMBERS"])
        },
        Operation(name: "recordOnboardingStarted", adminOnly: false,
                  document: "mutation($input: RecordOnboardingStartedInput!) { recordOnboardingStarted(input: $input) { isRecorded } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "platform": "IOS"])
        },
        Operation(name: "household.rewards", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { rewards { id viewerTokenCost } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "household.redemptions", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { redemptions(first: 5) { totalCount } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "household.viewerMember.tokenLedger", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { viewerMember { tokenBalance tokenLedger(first: 5) { totalCount } } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "giveBonusTokens", adminOnly: true,
                  document: "mutation($input: GiveBonusTokensInput!) { giveBonusTokens(input: $input) { entry { id } } }") { f, _ in
            ServerProcess.input(["memberId": .string(f.childMemberID), "amount": 5, "note": "Kind"])
        },
        Operation(name: "adjustTokens", adminOnly: true,
                  document: "mutation($input: AdjustTokensInput!) { adjustTokens(input: $input) { entry { id } } }") { f, _ in
            ServerProcess.input(["memberId": .string(f.childMemberID), "amount": 5, "note": "Fix"])
        },
        Operation(name: "recordPayout", adminOnly: true,
                  document: "mutation($input: RecordPayoutInput!) { recordPayout(input: $input) { entry { id } } }") { f, _ in
            ServerProcess.input(["memberId": .string(f.childMemberID), "tokens": 1])
        },
        Operation(name: "createReward", adminOnly: true,
                  document: "mutation($input: CreateRewardInput!) { createReward(input: $input) { reward { id } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "name": "Cinema", "tokenCost": 30])
        },
        Operation(name: "updateReward", adminOnly: true,
                  document: "mutation($input: UpdateRewardInput!) { updateReward(input: $input) { reward { id } } }") { f, _ in
            ServerProcess.input(["rewardId": .string(f.rewardID), "tokenCost": 2])
        },
        Operation(name: "deleteReward", adminOnly: true,
                  document: "mutation($input: DeleteRewardInput!) { deleteReward(input: $input) { deletedRewardId } }") { f, _ in
            ServerProcess.input(["rewardId": .string(f.rewardID)])
        },
        Operation(name: "redeemReward", adminOnly: false,
                  document: "mutation($input: RedeemRewardInput!) { redeemReward(input: $input) { redemption { id } } }") { f, _ in
            ServerProcess.input(["rewardId": .string(f.rewardID)])
        },
        Operation(name: "redeemReward for a child", adminOnly: false,
                  document: "mutation($input: RedeemRewardInput!) { redeemReward(input: $input) { redemption { id } } }",
                  variables: { f, _ in ServerProcess.input(["rewardId": .string(f.rewardID), "memberId": .string(f.childMemberID)]) },
                  refusesChildren: true),
        Operation(name: "household.members.tokenBalance and tokenLedger", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { members(first: 10) { edges { node { tokenBalance heldTokens tokenLedger(first: 5) { totalCount } } } } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "approveRedemption", adminOnly: true,
                  document: "mutation($input: ApproveRedemptionInput!) { approveRedemption(input: $input) { redemption { id } } }") { f, _ in
            ServerProcess.input(["redemptionId": .string(f.redemptionID)])
        },
        Operation(name: "rejectRedemption", adminOnly: true,
                  document: "mutation($input: RejectRedemptionInput!) { rejectRedemption(input: $input) { redemption { id } } }") { f, _ in
            ServerProcess.input(["redemptionId": .string(f.redemptionID)])
        },
        Operation(name: "approveCompletion", adminOnly: true,
                  document: "mutation($input: ApproveCompletionInput!) { approveCompletion(input: $input) { completion { id } } }") { f, _ in
            ServerProcess.input(["completionId": .string(f.completionID)])
        },
        Operation(name: "rejectCompletion", adminOnly: true,
                  document: "mutation($input: RejectCompletionInput!) { rejectCompletion(input: $input) { completion { id } } }") { f, _ in
            ServerProcess.input(["completionId": .string(f.completionID), "reason": "Again, please"])
        },
        Operation(name: "leaveHousehold", adminOnly: false,
                  document: "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "incompleteTasks": "REDISTRIBUTE"])
        },
        Operation(name: "deleteHousehold", adminOnly: true,
                  document: "mutation($input: DeleteHouseholdInput!) { deleteHousehold(input: $input) { deletedHouseholdId } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "confirmName": "Flat"])
        },
    ] + choreOperations + instanceOperations + leaderboardOperations

    /// The chore operations of issue 14.
    static let choreOperations: [Operation] = [
        Operation(name: "chore", adminOnly: false, document: "query($id: ID!) { chore(id: $id) { id title } }") { f, _ in
            ["id": .string(f.choreID)]
        },
        Operation(name: "householdChores", adminOnly: false,
                  document: "query($id: ID!) { householdChores(householdId: $id) { totalCount edges { node { id assignees { displayName } } } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "household.tags and choreCreationPolicy", adminOnly: false,
                  document: "query($id: ID!) { household(id: $id) { tags { id } choreCreationPolicy { roles } } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "chorePresets of the household", adminOnly: false,
                  document: "query($id: ID) { chorePresets(householdId: $id, first: 5) { totalCount } }") { f, _ in
            ["id": .string(f.householdID)]
        },
        Operation(name: "createChore", adminOnly: true,
                  document: "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "title": "New", "schedule": ["once": "2026-03-01T09:00:00Z"]])
        },
        Operation(name: "createChore from a preset", adminOnly: true,
                  document: "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "presetId": .string(f.presetID)])
        },
        Operation(name: "updateChore", adminOnly: true,
                  document: "mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { id } } }") { f, _ in
            ServerProcess.input(["choreId": .string(f.choreID), "tokens": 3])
        },
        Operation(name: "deleteChore", adminOnly: true,
                  document: "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { deletedChoreId } }") { f, _ in
            ServerProcess.input(["choreId": .string(f.choreID)])
        },
        Operation(name: "updateChoreCreationPolicy", adminOnly: true,
                  document: "mutation($input: UpdateChoreCreationPolicyInput!) { updateChoreCreationPolicy(input: $input) { choreCreationPolicy { roles } } }") { f, _ in
            ServerProcess.input(["householdId": .string(f.householdID), "creators": ["roles": ["MEMBER"]]])
        },
        Operation(name: "createTag", adminOnly: true,
                  document: "mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id } } }") { f, caller in
            ServerProcess.input(["householdId": .string(f.householdID), "name": .string("Tag of \(caller)")])
        },
        Operation(name: "updateTag", adminOnly: true,
                  document: "mutation($input: UpdateTagInput!) { updateTag(input: $input) { tag { id } } }") { f, caller in
            ServerProcess.input(["tagId": .string(f.tagID), "name": .string("Renamed by \(caller)")])
        },
        Operation(name: "deleteTag", adminOnly: true,
                  document: "mutation($input: DeleteTagInput!) { deleteTag(input: $input) { deletedTagId } }") { f, _ in
            ServerProcess.input(["tagId": .string(f.tagID)])
        },
        Operation(name: "saveChorePreset", adminOnly: true,
                  document: "mutation($input: SaveChorePresetInput!) { saveChorePreset(input: $input) { preset { id } } }") { f, caller in
            ServerProcess.input(["choreId": .string(f.choreID), "title": .string("Preset of \(caller)")])
        },
        Operation(name: "deleteChorePreset", adminOnly: true,
                  document: "mutation($input: DeleteChorePresetInput!) { deleteChorePreset(input: $input) { deletedPresetId } }") { f, _ in
            ServerProcess.input(["presetId": .string(f.presetID)])
        },
    ]

    /// Sets up household A for one row on the kit's ``ServerProcess/ChoreFamily`` (its household, Ana, Ben and Kim; Cara outside).
    static func fixture(_ server: ServerProcess, _ family: ServerProcess.ChoreFamily) throws -> Fixture {
        let (ana, householdID, kim, kimMemberID) = (family.ana, family.householdID, family.kim, family.kimMemberID)
        let invite = "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { invitation { id member { id } } inviteToken } }"
        let pending = try server.graphQL(invite, variables: ServerProcess.input(["householdId": .string(householdID), "email": "pending@example.com"]), token: ana.token)
        let invitationID = try #require(pending.data?["inviteMember"]?["invitation"]?["id"]?.stringValue, "\(pending.json)")
        let consent = try server.graphQL(
            "mutation($input: RecordParentalConsentInput!) { recordParentalConsent(input: $input) { consent { id } } }",
            variables: ServerProcess.input([
                "householdId": .string(householdID), "method": "EMAIL_PLUS", "path": "OWN_ACCOUNT",
                "attestation": "I am the parent and consent.", "termsVersion": "2026-11-01",
            ]), token: ana.token)
        let childConsentID = try #require(consent.data?["recordParentalConsent"]?["consent"]?["id"]?.stringValue, "\(consent.json)")
        let child = try server.graphQL(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
            variables: ServerProcess.input(["householdId": .string(householdID), "kind": "CHILD", "displayName": "Kid", "age": 8, "consentId": .string(childConsentID)]),
            token: ana.token)
        let childMemberID = try #require(child.data?["addMember"]?["member"]?["id"]?.stringValue, "\(child.json)")
        let spare = try server.graphQL(
            "mutation($input: RecordParentalConsentInput!) { recordParentalConsent(input: $input) { consent { id } } }",
            variables: ServerProcess.input([
                "householdId": .string(householdID), "method": "CARD", "path": "SUPERVISED",
                "attestation": "I am the parent and consent.", "termsVersion": "2026-11-01",
            ]), token: ana.token)
        let waiting = try server.childCompletesAChore(kim, member: kimMemberID, in: householdID, createdBy: ana, tokens: 3, requiresApproval: true)
        let chore = try server.chore("Dishes", in: householdID, as: ana)
        let choreID = try #require(chore["id"]?.stringValue)
        let childsChore = try server.chore(
            "Kid's room", in: householdID, as: ana, ["assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(childMemberID)]])
        let saved = try server.graphQL(
            "mutation($input: SaveChorePresetInput!) { saveChorePreset(input: $input) { preset { id } } }",
            variables: ServerProcess.input(["choreId": .string(choreID)]), token: ana.token)
        let reward = try server.graphQL(
            "mutation($input: CreateRewardInput!) { createReward(input: $input) { reward { id } } }",
            variables: ServerProcess.input(["householdId": .string(householdID), "name": "Free hug", "tokenCost": 0]), token: ana.token)
        let rewardID = try #require(reward.data?["createReward"]?["reward"]?["id"]?.stringValue, "\(reward.json)")
        let redemption = try server.graphQL(
            "mutation($input: RedeemRewardInput!) { redeemReward(input: $input) { redemption { id } } }",
            variables: ServerProcess.input(["rewardId": .string(rewardID), "memberId": .string(childMemberID)]), token: ana.token)
        return Fixture(
            ana: ana, ben: family.ben, cara: family.cara, kim: kim, householdID: householdID, anaMemberID: family.anaMemberID,
            benMemberID: family.benMemberID,
            childMemberID: childMemberID, invitationID: invitationID,
            consentID: try #require(spare.data?["recordParentalConsent"]?["consent"]?["id"]?.stringValue), choreID: choreID,
            childsChoreID: try #require(childsChore["id"]?.stringValue),
            tagID: try server.tag("Kitchen", in: householdID, as: ana),
            presetID: try #require(saved.data?["saveChorePreset"]?["preset"]?["id"]?.stringValue, "\(saved.json)"), rewardID: rewardID,
            redemptionID: try #require(redemption.data?["redeemReward"]?["redemption"]?["id"]?.stringValue, "\(redemption.json)"),
            completionID: waiting.completionID)
    }

    /// Runs `body` on a new server (started with `extra` arguments too) with the fixture, `cara` (the
    /// outsider) having a household of her own.
    static func withFixture(_ extra: [String] = [], _ body: (ServerProcess, Fixture) throws -> Void) throws {
        try ServerProcess.withChoreFamily(extra) { server, family in try body(server, try fixture(server, family)) }
    }

    @Test(arguments: operations)
    func eachOperationRefusesOutsidersWithNotFoundAndMembersAndChildrenOnlyWhereAdminsAreRequired(_ operation: Operation) throws {
        try Self.withFixture { server, fixture in
            let outsider = try server.graphQL(operation.document, variables: operation.variables(fixture, .outsider), token: fixture.cara.token)
            #expect(outsider.errorCode == "NOT_FOUND", "\(operation) as a non-member: \(outsider.json)")

            for (caller, person) in [(Caller.member, fixture.ben), (.child, fixture.kim)] {
                let answer = try server.graphQL(operation.document, variables: operation.variables(fixture, caller), token: person.token)
                if operation.adminOnly || (caller == .child && operation.refusesChildren) {
                    // A refusal names the rule that refused (ADMINS_ONLY, CHORE_COMPLETERS, …), for the client to act on.
                    #expect(answer.errorCode == "FORBIDDEN" && answer.errorReason != nil, "\(operation) as a \(caller): \(answer.json)")
                } else {
                    #expect(answer.errorCode != "FORBIDDEN" && answer.errorCode != "NOT_FOUND", "\(operation) as a \(caller): \(answer.json)")
                }
            }

            let admin = try server.graphQL(operation.document, variables: operation.variables(fixture, .admin), token: fixture.ana.token)
            #expect(admin.errorCode != "FORBIDDEN" && admin.errorCode != "NOT_FOUND", "\(operation) as an admin: \(admin.json)")
        }
    }

    @Test func idsOfAnotherHouseholdAreNullThroughNodeExactlyLikeUnknownIds() throws {
        try Self.withFixture { server, fixture in
            let ids: [JSON] = [
                .string(fixture.householdID), .string(fixture.anaMemberID), .string(fixture.childMemberID), .string(fixture.invitationID),
                "01900000-0000-7000-8000-000000000000", .string(fixture.consentID), "hh_01900000-0000-7000-8000-000000000000",
                "mem_01900000-0000-7000-8000-000000000000", "not an id", .string(fixture.choreID), .string(fixture.tagID), .string(fixture.presetID),
                "chr_01900000-0000-7000-8000-000000000000",
            ]
            // The binary mints typed ids (`<prefix>_<UUIDv7>`); unknown ones, typed, bare (legacy) or malformed, are null alike.
            #expect(fixture.householdID.hasPrefix("hh_") && fixture.anaMemberID.hasPrefix("mem_") && fixture.invitationID.hasPrefix("inv_"))
            #expect(fixture.consentID.hasPrefix("cns_"))
            let outsider = try server.graphQL("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", variables: ["ids": .array(ids)], token: fixture.cara.token)
            #expect(outsider.data?["nodes"] == .array(Array(repeating: .null, count: ids.count)), "\(outsider.json)")
            let admin = try server.graphQL("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", variables: ["ids": .array(ids)], token: fixture.ana.token)
            #expect(admin.data?["nodes"]?[0]?["id"]?.stringValue == fixture.householdID, "\(admin.json)")
            #expect(admin.data?["nodes"]?[2]?["id"]?.stringValue == fixture.childMemberID)
            #expect(admin.data?["nodes"]?[9]?["id"]?.stringValue == fixture.choreID && admin.data?["nodes"]?[10]?["id"]?.stringValue == fixture.tagID)
            #expect(admin.data?["nodes"]?[11]?["id"]?.stringValue == fixture.presetID && admin.data?["nodes"]?[12] == .null)
            let consent = try server.graphQL(
                "query($id: ID!) { node(id: $id) { __typename ... on ParentalConsent { method path } } }",
                variables: ["id": .string(fixture.consentID)], token: fixture.ana.token)
            #expect(consent.data?["node"] == ["__typename": "ParentalConsent", "method": "CARD", "path": "SUPERVISED"], "\(consent.json)")
            // Invitations and consents are the admins' business: a member sees the household, not them.
            let member = try server.graphQL("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", variables: ["ids": .array(ids)], token: fixture.ben.token)
            #expect(member.data?["nodes"]?[0]?["id"]?.stringValue == fixture.householdID, "\(member.json)")
            #expect(member.data?["nodes"]?[3] == .null && member.data?["nodes"]?[5] == .null)
        }
    }

    @Test func anInvitationForSomeoneElseCannotBeAcceptedOrDeclinedByAnOutsider() throws {
        try Self.withFixture { server, fixture in
            for mutation in ["acceptInvitation", "declineInvitation"] {
                let capitalized = mutation.prefix(1).uppercased() + mutation.dropFirst()
                let byID = try server.graphQL(
                    "mutation($input: \(capitalized)Input!) { \(mutation)(input: $input) { __typename } }",
                    variables: ServerProcess.input(["invitation": ["invitationId": .string(fixture.invitationID)]]), token: fixture.cara.token)
                #expect(byID.errorCode == "NOT_FOUND", "\(mutation) by id: \(byID.json)")
            }
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM invitations WHERE id = '\(fixture.invitationID)'") == "1")
        }
    }
}
