import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the token economy and the rewards store in `schema.graphql` over
/// ``TokenService``: the fields of members and households, the token objects' relations (through
/// one ``TokenBatch`` per result set) and `node` lookups here; the mutations in `+Mutations`.
enum TokenResolvers {
    static func install(into resolvers: inout Resolvers, tokens: TokenService) {
        installMemberFields(into: &resolvers, tokens: tokens)
        installRelations(into: &resolvers)
        installMutations(into: &resolvers, tokens: tokens)
        resolvers.resolveAsync("Household", "rewards") { source, _, _, _ in
            let household = source as! HouseholdValue
            let batch = TokenBatch(access: household.access, tokens: tokens)
            return try await tokens.rewards(household.access).map { RewardValue($0, batch: batch) }
        }
        resolvers.resolveAsync("Household", "redemptions") { source, arguments, _, _ in
            let household = source as! HouseholdValue
            let status: RedemptionStatus? = GraphQLEnum.value(arguments.string("status"))
            let page = try await tokens.redemptions(
                household.access, status: status, first: arguments.int("first"), after: arguments.string("after"))
            let batch = TokenBatch(access: household.access, tokens: tokens)
            return connection(page) { RedemptionValue($0, batch: batch) }
        }
    }

    /// `Member.tokenBalance`, `heldTokens` and `tokenLedger`: null for members whose tokens the
    /// viewer may not see, without a read.
    private static func installMemberFields(into resolvers: inout Resolvers, tokens: TokenService) {
        for (field, read) in [("tokenBalance", \TokenBalance.balance), ("heldTokens", \TokenBalance.held)] {
            resolvers.resolveField("Member", field) { source, _, _, _ in
                let member = source as! MemberValue
                guard TokenService.maySeeTokens(of: member.record.id, member.access) else { return .value(nil) }
                return .async { try await tokens.tokens(of: member.record, member.access)?[keyPath: read] }
            }
        }
        resolvers.resolveField("Member", "tokenLedger") { source, arguments, _, _ in
            let member = source as! MemberValue
            guard TokenService.maySeeTokens(of: member.record.id, member.access) else { return .value(nil) }
            let (first, after) = (arguments.int("first"), arguments.string("after"))
            return .async {
                guard let page = try await tokens.ledger(of: member.record, member.access, first: first, after: after) else { return nil }
                let batch = TokenBatch(access: member.access, tokens: tokens)
                return connection(page) { LedgerEntryValue($0, batch: batch) }
            }
        }
    }

    /// The fields of token objects that name other rows, read through their batch.
    private static func installRelations(into resolvers: inout Resolvers) {
        resolvers.resolveField("TokenLedgerEntry", "member") { source, _, _, _ in
            let entry = source as! LedgerEntryValue
            return entry.batch.member(entry.record.memberID)
        }
        resolvers.resolveField("TokenLedgerEntry", "recordedBy") { source, _, _, _ in
            let entry = source as! LedgerEntryValue
            return entry.batch.member(entry.record.recordedBy)
        }
        resolvers.resolveField("TokenLedgerEntry", "redemption") { source, _, _, _ in
            let entry = source as! LedgerEntryValue
            guard let redemptionID = entry.record.redemptionID else { return .value(nil) }
            let load = entry.batch.redemptions.load(redemptionID)
            let batch = entry.batch
            return .async { try await load().map { RedemptionValue($0, batch: batch) } }
        }
        resolvers.resolveField("Reward", "eligibleMembers") { source, _, _, _ in
            let reward = source as! RewardValue
            guard let ids = reward.record.eligibleMemberIDs else { return .value(nil) }
            let loads = ids.map { reward.batch.members.load($0) }
            let access = reward.batch.access
            return .async {
                var members: [MemberValue] = []
                for load in loads {
                    if let member = try await load() { members.append(MemberValue(record: member, access: access)) }
                }
                return members
            }
        }
        resolvers.resolveField("Reward", "memberPrices") { source, _, _, _ in
            let reward = source as! RewardValue
            let prices = reward.record.memberPrices.sorted { $0.key < $1.key }
            let loads = prices.map { (reward.batch.members.load($0.key), $0.value) }
            let access = reward.batch.access
            return .async {
                var listed: [[String: any Sendable]] = []
                for (load, cost) in loads {
                    if let member = try await load() { listed.append(["member": MemberValue(record: member, access: access), "tokenCost": cost]) }
                }
                return listed
            }
        }
        let redemptionMembers: [(String, @Sendable (RedemptionRecord) -> String?)] = [
            ("member", { $0.memberID }), ("requestedBy", { $0.requestedBy }), ("reviewedBy", { $0.reviewedBy }),
        ]
        for (field, memberID) in redemptionMembers {
            resolvers.resolveField("RewardRedemption", field) { source, _, _, _ in
                let redemption = source as! RedemptionValue
                return redemption.batch.member(memberID(redemption.record))
            }
        }
        // A completion's review, which approving and rejecting record.
        resolvers.resolveField("ChoreCompletion", "reviewedBy") { source, _, _, _ in
            let completion = source as! ChoreCompletionValue
            return .async(completion.batch.member(completion.record.reviewedByMemberID))
        }
        resolvers.resolve("ChoreCompletion", "reviewedAt") { source, _, _, _ in (source as! ChoreCompletionValue).record.reviewedAt }
        resolvers.resolve("ChoreCompletion", "rejectionReason") { source, _, _, _ in
            let completion = (source as! ChoreCompletionValue).record
            return completion.status == .rejected ? completion.reviewNote : nil
        }
        resolvers.resolveField("RewardRedemption", "reward") { source, _, _, _ in
            let redemption = source as! RedemptionValue
            let load = redemption.batch.rewards.load(redemption.record.rewardID)
            let batch = redemption.batch
            return .async { try await load().map { RewardValue($0, batch: batch) } }
        }
    }

    /// A connection of `page` with each item made a value by `value`.
    static func connection<Item>(_ page: TokenPage<Item>, _ value: (Item) -> any Sendable) -> [String: any Sendable] {
        let pageInfo: [String: any Sendable] = [
            "hasNextPage": page.hasNextPage, "hasPreviousPage": page.hasPreviousPage, "startCursor": page.startCursor,
            "endCursor": page.endCursor,
        ]
        return [
            "edges": page.edges.map { edge -> [String: any Sendable] in ["cursor": edge.cursor, "node": value(edge.item)] },
            "pageInfo": pageInfo, "totalCount": page.totalCount,
        ]
    }

    /// The rewards, requests and ledger entries among `ids` the viewer may see, for `node`/`nodes`
    /// (``TokenService/nodes(ids:viewer:)``). Signed-out callers see none.
    static func nodes(ids: [String], tokens: TokenService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer, !ids.isEmpty else { return [:] }
        var batches: [HouseholdAccess: TokenBatch] = [:]
        func batch(_ access: HouseholdAccess) -> TokenBatch {
            if let known = batches[access] { return known }
            let made = TokenBatch(access: access, tokens: tokens)
            batches[access] = made
            return made
        }
        return try await tokens.nodes(ids: ids, viewer: viewer).mapValues { node -> any Sendable in
            switch node {
            case .reward(let record, let access): RewardValue(record, batch: batch(access))
            case .redemption(let record, let access): RedemptionValue(record, batch: batch(access))
            case .ledgerEntry(let record, let access): LedgerEntryValue(record, batch: batch(access))
            }
        }
    }
}
