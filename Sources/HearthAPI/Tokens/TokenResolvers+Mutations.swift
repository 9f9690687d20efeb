import GraphQL
import HearthDomain
import HearthServices

extension TokenResolvers {
    /// The mutations of the token economy and the rewards store; each payload's objects share one batch.
    static func installMutations(into resolvers: inout Resolvers, tokens: TokenService) {
        installCompletionsAndLedger(into: &resolvers, tokens: tokens)
        installRewards(into: &resolvers, tokens: tokens)
        installRedemptions(into: &resolvers, tokens: tokens)
    }

    private static func installCompletionsAndLedger(into resolvers: inout Resolvers, tokens: TokenService) {
        resolvers.resolveMutation("approveCompletion") { input, context in
            payload(
                try await tokens.approveCompletion(
                    id: try input.requiredString("completionId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID),
                tokens: tokens)
        }
        resolvers.resolveMutation("rejectCompletion") { input, context in
            payload(
                try await tokens.rejectCompletion(
                    id: try input.requiredString("completionId"), reason: input.string("reason"), viewer: try context.viewer(),
                    clientMutationID: input.clientMutationID),
                tokens: tokens)
        }
        resolvers.resolveMutation("adjustTokens") { input, context in
            try await payload(tokens.adjustTokens(
                memberID: try input.requiredString("memberId"), amount: try requiredInt(input, "amount"), note: try input.requiredString("note"),
                viewer: try context.viewer(), clientMutationID: input.clientMutationID), tokens: tokens)
        }
        resolvers.resolveMutation("giveBonusTokens") { input, context in
            try await payload(tokens.giveBonusTokens(
                memberID: try input.requiredString("memberId"), amount: try requiredInt(input, "amount"), note: try input.requiredString("note"),
                viewer: try context.viewer(), clientMutationID: input.clientMutationID), tokens: tokens)
        }
        resolvers.resolveMutation("recordPayout") { input, context in
            try await payload(tokens.recordPayout(
                memberID: try input.requiredString("memberId"), tokens: try requiredInt(input, "tokens"), note: input.string("note"),
                viewer: try context.viewer(), clientMutationID: input.clientMutationID), tokens: tokens)
        }
    }

    private static func installRewards(into resolvers: inout Resolvers, tokens: TokenService) {
        resolvers.resolveMutation("createReward") { input, context in
            let draft = RewardDraft(
                name: try input.requiredString("name"), description: input.string("description"), tokenCost: try requiredInt(input, "tokenCost"),
                stock: input.int("stock"), eligibleMemberIDs: input.strings("eligibleMemberIds"), memberPrices: try memberPrices(input) ?? [:])
            let (reward, access) = try await tokens.createReward(
                householdID: try input.requiredString("householdId"), draft, id: input.string("id"), viewer: try context.viewer(),
                clientMutationID: input.clientMutationID)
            return ["reward": RewardValue(reward, batch: TokenBatch(access: access, tokens: tokens))]
        }
        resolvers.resolveMutation("updateReward") { input, context in
            let changes = RewardChanges(
                name: input.string("name"), description: input.change("description"), tokenCost: input.int("tokenCost"),
                stock: input.change("stock", input.int), eligibleMemberIDs: input.change("eligibleMemberIds", input.strings),
                memberPrices: try memberPrices(input))
            let (reward, access) = try await tokens.updateReward(
                id: try input.requiredString("rewardId"), changes, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["reward": RewardValue(reward, batch: TokenBatch(access: access, tokens: tokens))]
        }
        resolvers.resolveMutation("deleteReward") { input, context in
            let deleted = try await tokens.deleteReward(
                id: try input.requiredString("rewardId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["deletedRewardId": deleted]
        }
    }

    private static func installRedemptions(into resolvers: inout Resolvers, tokens: TokenService) {
        resolvers.resolveMutation("redeemReward") { input, context in
            try await payload(tokens.redeemReward(
                rewardID: try input.requiredString("rewardId"), memberID: input.string("memberId"), viewer: try context.viewer(),
                clientMutationID: input.clientMutationID), tokens: tokens)
        }
        resolvers.resolveMutation("approveRedemption") { input, context in
            try await payload(tokens.approveRedemption(
                id: try input.requiredString("redemptionId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID),
                tokens: tokens)
        }
        resolvers.resolveMutation("rejectRedemption") { input, context in
            try await payload(tokens.rejectRedemption(
                id: try input.requiredString("redemptionId"), reason: input.string("reason"), viewer: try context.viewer(),
                clientMutationID: input.clientMutationID), tokens: tokens)
        }
    }

    /// The `{ completion ledgerEntries }` payload of a completion an admin decided on.
    private static func payload(_ reviewed: TokenService.ReviewedCompletion, tokens: TokenService) -> [String: any Sendable] {
        let instances = InstanceBatch(access: reviewed.choreAccess, services: InstanceServices(chores: tokens.instances.chores, instances: tokens.instances))
        let batch = TokenBatch(access: reviewed.access, tokens: tokens)
        return [
            "completion": ChoreCompletionValue(record: reviewed.completion, batch: instances),
            "ledgerEntries": reviewed.entries.map { LedgerEntryValue($0, batch: batch) },
        ]
    }

    /// The `{ entry member }` payload of an admin's ledger entry.
    private static func payload(_ moved: TokenService.MovedTokens, tokens: TokenService) async throws -> [String: any Sendable] {
        let batch = TokenBatch(access: moved.access, tokens: tokens)
        return ["entry": LedgerEntryValue(moved.entry, batch: batch), "member": try await member(moved.entry.memberID, batch)]
    }

    /// The `{ redemption member }` payload of a request for a reward.
    private static func payload(_ redeemed: TokenService.AccessibleRedemption, tokens: TokenService) async throws -> [String: any Sendable] {
        let batch = TokenBatch(access: redeemed.access, tokens: tokens)
        return ["redemption": RedemptionValue(redeemed.redemption, batch: batch), "member": try await member(redeemed.redemption.memberID, batch)]
    }

    /// The `Member` `memberID` of the batch's household, read now (the payload's member is non-null).
    private static func member(_ memberID: String, _ batch: TokenBatch) async throws -> MemberValue {
        guard let record = try await batch.members.load(memberID)() else { throw ServiceError.memberNotFound }
        return MemberValue(record: record, access: batch.access)
    }

    /// The `Int!` field `field`.
    private static func requiredInt(_ input: MutationInput, _ field: String) throws -> Int {
        guard let value = input.int(field) else { throw input.problem(field, .required, "This field is required.") }
        return value
    }

    /// The `memberPrices` of `input` by member id; `nil` when absent.
    private static func memberPrices(_ input: MutationInput) throws -> [String: Int]? {
        try input.objects("memberPrices")?.reduce(into: [:]) { prices, price in
            prices[try price.requiredString("memberId")] = try requiredInt(price, "tokenCost")
        }
    }
}
