import Foundation
import GraphQL
import Testing

/// Replay everywhere (issue 17): every mutation that takes `clientMutationId`, sent twice under one
/// id through the binary, the second time with other values, answers the replay without an error
/// and changes nothing, table by table (``ServerProcess/expectReplay(_:_:_:changed:selecting:as:sourceLocation:)``).
/// Grouped by area, in the order a family's phones would send them. `importLoopHabits` replays in
/// `HabitPortingTests.aClientMutationIdReplaysTheFirstReport` (it takes a file).
@Suite struct ReplayEverywhereTests {
    private static let arguments = ServerProcess.householdArguments + ["--test-endpoints"]

    private static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down)))
    }

    private static func id(_ payload: JSON, _ path: String...) throws -> String {
        var value: JSON? = payload
        for key in path { value = value?[key] }
        return try #require(value?.stringValue, "no \(path) in \(payload)")
    }

    @Test func everyHouseholdMutationReplays() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let (ana, ben, cara) = (try server.person("ana"), try server.person("ben"), try server.person("cara"))
        let created = try server.expectReplay(
            "createHousehold", "CreateHouseholdInput", ["name": "Flat"], changed: ["name": "Other"], selecting: "household { id }", as: ana)
        let flat = try Self.id(created, "household", "id")
        let household: [String: JSON] = ["householdId": .string(flat)]
        try server.expectReplay("updateHousehold", "UpdateHouseholdInput", household.merging(["name": "Flat 2"]) { $1 }, changed: ["name": "Flat 3"], as: ana)
        try server.expectReplay("setActiveHousehold", "SetActiveHouseholdInput", household, as: ana)
        let invited = try server.expectReplay(
            "inviteMember", "InviteMemberInput", household.merging(["email": "x1@example.com"]) { $1 }, changed: ["email": "x9@example.com"],
            selecting: "invitation { id }", as: ana)
        let coParent = try server.expectReplay(
            "inviteCoParent", "InviteCoParentInput", household.merging(["email": "x2@example.com"]) { $1 }, selecting: "invitation { id }", as: ana)
        try server.expectReplay("resendInvitation", "ResendInvitationInput", ["invitationId": .string(try Self.id(invited, "invitation", "id"))], as: ana)
        try server.expectReplay("revokeInvitation", "RevokeInvitationInput", ["invitationId": .string(try Self.id(coParent, "invitation", "id"))], as: ana)
        let accepted = try server.expectReplay(
            "acceptInvitation", "AcceptInvitationInput", ["invitation": ["token": .string(try server.inviteToken(ben.email, to: flat, by: ana))]],
            selecting: "member { id }", as: ben)
        let benMember = try Self.id(accepted, "member", "id")
        try server.expectReplay(
            "declineInvitation", "DeclineInvitationInput", ["invitation": ["token": .string(try server.inviteToken(cara.email, to: flat, by: ana))]],
            as: cara)
        try server.expectReplay("changeMemberRole", "ChangeMemberRoleInput", ["memberId": .string(benMember), "role": "ADMIN"], changed: ["role": "MEMBER"], as: ana)
        let version = try #require(try server.graphQL("{ terms { currentVersion } }", token: ana.token).data?["terms"]?["currentVersion"])
        let consent = try server.expectReplay(
            "recordParentalConsent", "RecordParentalConsentInput",
            household.merging([
                "id": "cns_0190ffff-0000-7000-8000-000000000001", "method": "EMAIL_PLUS", "path": "OWN_ACCOUNT",
                "attestation": "I am the parent and I consent.", "termsVersion": version,
            ]) { $1 },
            changed: ["attestation": "Other words"], selecting: "consent { id }", as: ana)
        #expect(try Self.id(consent, "consent", "id") == "cns_0190ffff-0000-7000-8000-000000000001", "the id the phone made")
        let added = try server.expectReplay(
            "addMember", "AddMemberInput",
            household.merging(["kind": "CHILD", "displayName": "Tom", "age": 8, "consentId": .string(try Self.id(consent, "consent", "id"))]) { $1 },
            changed: ["displayName": "Tim"], selecting: "member { id }", as: ana)
        let tom = try Self.id(added, "member", "id")
        try server.expectReplay("updateMember", "UpdateMemberInput", ["memberId": .string(tom), "displayName": "Tommy"], changed: ["displayName": "Thomas"], as: ana)
        try server.expectReplay(
            "updateEconomySettings", "UpdateEconomySettingsInput", household.merging(["currencyPerToken": "0.10"]) { $1 },
            changed: ["currencyPerToken": "0.20"], as: ana)
        for mutation in ["visitOnboardingStep", "skipOnboardingStep", "completeOnboardingStep"] {
            try server.expectReplay(mutation, "OnboardingStepInput", household.merging(["step": "ECONOMY"]) { $1 }, as: ana)
        }
        try server.expectReplay("recordOnboardingStarted", "RecordOnboardingStartedInput", ["platform": "IOS"], changed: ["platform": "WEB"], as: ana)
        try server.expectReplay("acceptTerms", "AcceptTermsInput", ["version": version], as: ana)
        try server.expectReplay("setAnalyticsConsent", "SetAnalyticsConsentInput", ["isConsented": true], changed: ["isConsented": false], as: ana)
        try server.expectReplay("updateProfile", "UpdateProfileInput", ["displayName": "Ana"], changed: ["displayName": "Anna"], as: ana)
        try server.expectReplay(
            "updateVacationSettings", "UpdateVacationSettingsInput", household.merging(["reclaimRedistributedOnReturn": true]) { $1 },
            changed: ["reclaimRedistributedOnReturn": false], as: ana)
        try server.expectReplay(
            "startVacation", "StartVacationInput", household.merging(["memberIds": [.string(tom)], "handling": "PAUSE"]) { $1 },
            changed: ["handling": "REDISTRIBUTE"], as: ana)
        try server.expectReplay("endVacation", "EndVacationInput", household.merging(["memberIds": [.string(tom)]]) { $1 }, as: ana)
        try server.expectReplay(
            "removeMember", "RemoveMemberInput", ["memberId": .string(tom), "incompleteTasks": "UNASSIGN"], changed: ["incompleteTasks": "REDISTRIBUTE"],
            as: ana)
        try server.expectReplay("leaveHousehold", "LeaveHouseholdInput", household.merging(["incompleteTasks": "UNASSIGN"]) { $1 }, as: ben)
        let (cabin, _) = try server.createHousehold("Cabin", as: cara)
        try server.expectReplay(
            "startHouseholdVacation", "StartHouseholdVacationInput", ["householdId": .string(cabin), "handling": "PAUSE"],
            changed: ["handling": "REDISTRIBUTE"], as: cara)
        try server.expectReplay("deleteHousehold", "DeleteHouseholdInput", ["householdId": .string(cabin), "confirmName": "Cabin"], as: cara)
    }

    @Test func everyChoreAndTokenMutationReplays() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let household: [String: JSON] = ["householdId": .string(f.householdID)]
        try server.expectReplay(
            "updateChoreCreationPolicy", "UpdateChoreCreationPolicyInput", household.merging(["creators": ["roles": ["ADMIN"]]]) { $1 },
            changed: ["creators": ["roles": ["ADMIN", "MEMBER"]]], as: f.ana)
        let tag = try Self.id(
            try server.expectReplay("createTag", "CreateTagInput", household.merging(["name": "Kitchen"]) { $1 }, changed: ["name": "Bath"], selecting: "tag { id }", as: f.ana),
            "tag", "id")
        try server.expectReplay("updateTag", "UpdateTagInput", ["tagId": .string(tag), "name": "Kitchen 2"], changed: ["name": "Kitchen 3"], as: f.ana)
        let due = Self.time(3600)
        let made = try server.expectReplay(
            "createChore", "CreateChoreInput", household.merging(["title": "Dishes", "schedule": ["once": .string(due)], "tokens": 2]) { $1 },
            changed: ["title": "Bins"], selecting: "chore { id }", as: f.ana)
        let chore = try Self.id(made, "chore", "id")
        try server.expectReplay("updateChore", "UpdateChoreInput", ["choreId": .string(chore), "title": "Dishes!"], changed: ["title": "Dishes?"], as: f.ana)
        let preset = try Self.id(
            try server.expectReplay("saveChorePreset", "SaveChorePresetInput", ["choreId": .string(chore)], changed: ["title": "Other"], selecting: "preset { id }", as: f.ana),
            "preset", "id")
        try server.expectReplay("deleteChorePreset", "DeleteChorePresetInput", ["presetId": .string(preset)], as: f.ana)
        let instance: [String: JSON] = ["instanceId": .string(try ServerProcess.derivedInstanceID(choreID: chore, dueAt: due))]
        try server.expectReplay("claimChore", "ClaimChoreInput", instance, as: f.ben)
        try server.expectReplay("releaseChore", "ReleaseChoreInput", instance, as: f.ben)
        try server.expectReplay("completeChore", "CompleteChoreInput", instance, as: f.ben)
        try server.expectReplay("uncompleteChore", "UncompleteChoreInput", instance, as: f.ben)
        let approved = try Self.id(
            try server.chore("Approve me", in: f.householdID, as: f.ana, ["schedule": ["once": .string(due)], "requiresApproval": true]), "id")
        let pending = try server.completeChore(try ServerProcess.derivedInstanceID(choreID: approved, dueAt: due), as: f.ben)
        let completion = try #require(pending.data?["completeChore"]?["completion"]?["id"]?.stringValue, "\(pending.json)")
        try server.expectReplay("approveCompletion", "ApproveCompletionInput", ["completionId": .string(completion)], as: f.ana)
        let rejected = try Self.id(
            try server.chore("Reject me", in: f.householdID, as: f.ana, ["schedule": ["once": .string(due)], "requiresApproval": true]), "id")
        let second = try server.completeChore(try ServerProcess.derivedInstanceID(choreID: rejected, dueAt: due), as: f.ben)
        let secondCompletion = try #require(second.data?["completeChore"]?["completion"]?["id"]?.stringValue, "\(second.json)")
        try server.expectReplay(
            "rejectCompletion", "RejectCompletionInput", ["completionId": .string(secondCompletion), "reason": "Not yet"], changed: ["reason": "No"], as: f.ana)
        try server.expectReplay("deleteChore", "DeleteChoreInput", ["choreId": .string(chore)], as: f.ana)
        try server.expectReplay("deleteTag", "DeleteTagInput", ["tagId": .string(tag)], as: f.ana)

        let ben: [String: JSON] = ["memberId": .string(f.benMemberID)]
        try server.expectReplay("giveBonusTokens", "GiveBonusTokensInput", ben.merging(["amount": 20, "note": "Well done"]) { $1 }, changed: ["amount": 30], as: f.ana)
        try server.expectReplay("adjustTokens", "AdjustTokensInput", ben.merging(["amount": -2, "note": "Fix"]) { $1 }, changed: ["amount": -3], as: f.ana)
        try server.expectReplay("recordPayout", "RecordPayoutInput", ben.merging(["tokens": 1]) { $1 }, changed: ["tokens": 2], as: f.ana)
        let reward = try Self.id(
            try server.expectReplay(
                "createReward", "CreateRewardInput", household.merging(["name": "Ice cream", "tokenCost": 2]) { $1 }, changed: ["name": "Cake"],
                selecting: "reward { id }", as: f.ana),
            "reward", "id")
        try server.expectReplay("updateReward", "UpdateRewardInput", ["rewardId": .string(reward), "name": "Ice"], changed: ["name": "Gelato"], as: f.ana)
        let redemption = try Self.id(
            try server.expectReplay("redeemReward", "RedeemRewardInput", ["rewardId": .string(reward)], selecting: "redemption { id }", as: f.ben),
            "redemption", "id")
        try server.expectReplay("approveRedemption", "ApproveRedemptionInput", ["redemptionId": .string(redemption)], as: f.ana)
        let another = try server.graphQL(
            "mutation($input: RedeemRewardInput!) { redeemReward(input: $input) { redemption { id } } }",
            variables: ServerProcess.input(["rewardId": .string(reward)]), token: f.ben.token)
        let anotherID = try #require(another.data?["redeemReward"]?["redemption"]?["id"]?.stringValue, "\(another.json)")
        try server.expectReplay(
            "rejectRedemption", "RejectRedemptionInput", ["redemptionId": .string(anotherID), "reason": "Later"], changed: ["reason": "No"], as: f.ana)
        try server.expectReplay("deleteReward", "DeleteRewardInput", ["rewardId": .string(reward)], as: f.ana)

        let personal = try Self.id(try server.chore("Run", in: nil, as: f.ana), "id")
        // Each answer to a share of its own (the replay record of the share is cleared for the next).
        let answers: [(String, String, ServerProcess.Person)] = [
            ("revokeShare", "RevokeShareInput", f.ana), ("declineShare", "DeclineShareInput", f.ben), ("acceptShare", "AcceptShareInput", f.ben),
        ]
        for (mutation, inputType, person) in answers {
            try server.databaseWrite("DELETE FROM mutation_replays WHERE client_mutation_id = 'shareChores-replay'")
            let share = try Self.id(
                try server.expectReplay(
                    "shareChores", "ShareChoresInput", ["selection": ["choreIds": [.string(personal)]], "recipient": ["email": .string(f.ben.email)]],
                    selecting: "share { id }", as: f.ana),
                "share", "id")
            try server.expectReplay(mutation, inputType, ["shareId": .string(share)], as: person)
        }
    }

    @Test func everyHabitAndFollowingMutationReplays() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let habit = try Self.id(
            try server.expectReplay(
                "createHabit", "CreateHabitInput", ["title": "Run", "startsOn": "2026-01-05", "plan": ["MONDAY"]], changed: ["title": "Swim"],
                selecting: "habit { id }", as: ana),
            "habit", "id")
        try server.expectReplay("updateHabit", "UpdateHabitInput", ["habitId": .string(habit), "title": "Run 5 km"], changed: ["title": "Walk"], as: ana)
        let event = try Self.id(
            try server.expectReplay(
                "recordHabitEvent", "RecordHabitEventInput", ["habitId": .string(habit), "comment": "park"], changed: ["comment": "beach"],
                selecting: "habitEvent { id }", as: ana),
            "habitEvent", "id")
        try server.expectReplay("updateHabitEvent", "UpdateHabitEventInput", ["habitEventId": .string(event), "comment": "lake"], changed: ["comment": "sea"], as: ana)
        try server.expectReplay("deleteHabitEvent", "DeleteHabitEventInput", ["habitEventId": .string(event)], as: ana)
        try server.expectReplay("deleteHabit", "DeleteHabitInput", ["habitId": .string(habit)], as: ana)

        let answers: [(String, String, Bool)] = [
            ("acceptFollowRequest", "AcceptFollowRequestInput", false), ("removeFollower", "RemoveFollowerInput", false),
            ("declineFollowRequest", "DeclineFollowRequestInput", false), ("unfollow", "UnfollowInput", true),
        ]
        var follow = ""
        for (mutation, inputType, byFollower) in answers {
            if mutation != "removeFollower" {
                try server.databaseWrite("DELETE FROM mutation_replays WHERE client_mutation_id = 'requestFollow-replay'")
                follow = try Self.id(
                    try server.expectReplay("requestFollow", "RequestFollowInput", ["username": .string(ben.username)], selecting: "follow { id }", as: ana),
                    "follow", "id")
            }
            try server.expectReplay(mutation, inputType, ["followId": .string(follow)], as: byFollower ? ana : ben)
        }
    }
}
