import FoundationEssentials
import HearthDomain
import HearthStore

extension TokenService {
    /// Adds a reward to the household's store. Admins only.
    /// - Throws: `BAD_USER_INPUT` listing every problem (``checked(_:)``, and member ids that are
    ///   not of joined members of the household: `UNKNOWN_VALUE`), `NOT_FOUND`, `FORBIDDEN`,
    ///   `CONFLICT` at the rewards-per-household limit (`LIMIT_REACHED`) or for a reused `clientMutationID`;
    ///   for `id` (made offline, `rwd_<uuid>`), as ``ClientIDs/claim(_:_:field:_:at:)``.
    public func createReward(
        householdID: String, _ draft: RewardDraft, id: String? = nil, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleReward {
        let draft = try checked(draft)
        let created = try await mutate("createReward", by: viewer, replaying: clientMutationID) { [self] database, now in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let rewardID: String
            switch try ClientIDs.claim(id, .reward, OwnerScope(Owner(viewer), database), at: now) {
            case .existing(let made): return RewardReference(householdID: scope.access.householdID, rewardID: made)
            case .create(let new): rewardID = new
            }
            let offered = try scope.scalar(Int.self, "SELECT count(*) FROM rewards WHERE household_id = {household} AND deleted_at IS NULL") ?? 0
            guard offered < configuration.maximumRewardsPerHousehold else {
                throw ServiceError(.conflict, reason: .limitReached, "The household offers \(offered) rewards, the most allowed. Delete one first.")
            }
            try Self.checkMembers(of: draft, scope)
            let id = rewardID
            try scope.execute(
                """
                INSERT INTO rewards (id, household_id, name, name_key, description, token_cost, stock, is_restricted, created_by, created_at, updated_at)
                VALUES (?, {household}, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    id, draft.name, DisplayText.sortKey(draft.name), draft.description, draft.tokenCost, draft.stock,
                    draft.eligibleMemberIDs != nil, scope.access.memberID, now, now,
                ])
            try Self.storeMembers(of: draft, rewardID: id, scope)
            try record(.rewardCreated, TokenChange(householdID: scope.access.householdID, rewardID: id), in: database)
            return RewardReference(householdID: scope.access.householdID, rewardID: id)
        }
        return try await reward(created, viewer: viewer)
    }

    /// Changes a reward; requests already made keep the price they were made at. Admins only.
    /// - Throws: as ``createReward(householdID:_:viewer:clientMutationID:)``, and `NOT_FOUND` for a
    ///   deleted reward.
    public func updateReward(id: String, _ changes: RewardChanges, viewer: Viewer, clientMutationID: String? = nil) async throws -> AccessibleReward {
        let updated = try await mutate("updateReward", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let scope = try HouseholdScope.check(
                viewer: viewer, owning: .rewards, id: id, requiring: .admin, notFound: .rewardNotFound, in: database)
            let draft = try checked(changes.applied(to: try RewardRecord.findOffered(id: id, scope)))
            try Self.checkMembers(of: draft, scope)
            try scope.execute(
                """
                UPDATE rewards SET name = ?, name_key = ?, description = ?, token_cost = ?, stock = ?, is_restricted = ?, updated_at = ?
                WHERE id = ? AND household_id = {household}
                """,
                [
                    draft.name, DisplayText.sortKey(draft.name), draft.description, draft.tokenCost, draft.stock,
                    draft.eligibleMemberIDs != nil, now, id,
                ])
            try scope.execute("DELETE FROM reward_members WHERE reward_id = ? AND household_id = {household}", [id])
            try Self.storeMembers(of: draft, rewardID: id, scope)
            try record(.rewardUpdated, TokenChange(householdID: scope.access.householdID, rewardID: id), in: database)
            return RewardReference(householdID: scope.access.householdID, rewardID: id)
        }
        return try await reward(updated, viewer: viewer)
    }

    /// Takes a reward out of the store. Requests already made stay, waiting for a decision as
    /// before; the reward stays readable through them. Admins only.
    /// It leaves a tombstone (``Tombstones``).
    /// - Throws: `NOT_FOUND` (reason `DELETED` for a reward already deleted), `FORBIDDEN`.
    public func deleteReward(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await mutate("deleteReward", by: viewer, replaying: clientMutationID, about: id) { [self] database, now -> RewardReference in
            let scope = try HouseholdScope.check(
                viewer: viewer, owning: .rewards, id: id, requiring: .admin, notFound: .rewardNotFound, in: database)
            _ = try RewardRecord.findOffered(id: id, scope)
            try Tombstones.record([id], .reward, scope: .household(scope.access.householdID), at: now, in: database)
            try scope.execute("UPDATE rewards SET deleted_at = ?, updated_at = ? WHERE id = ? AND household_id = {household}", [now, now, id])
            try record(.rewardDeleted, TokenChange(householdID: scope.access.householdID, rewardID: id), in: database)
            return RewardReference(householdID: scope.access.householdID, rewardID: id)
        }.rewardID
    }

    /// `draft` trimmed, with duplicate member ids dropped, when every field is valid.
    /// - Throws: `BAD_USER_INPUT` listing every problem: `input.name`, `input.description`,
    ///   `input.tokenCost` and `input.memberPrices` (`OUT_OF_RANGE`: 0 to the maximum token
    ///   amount), `input.stock` (`OUT_OF_RANGE`: 0 to the maximum stock), `input.eligibleMemberIds`
    ///   and `input.memberPrices` (`TOO_LONG`: more than the household may have members;
    ///   `input.memberPrices` `NOT_ALLOWED`: a price for a member the reward is not for).
    func checked(_ draft: RewardDraft) throws -> RewardDraft {
        var problems = ProblemCollector()
        var checked = draft
        checked.name = problems.check { () throws(FieldProblem) in try DisplayText.name(draft.name, field: "input.name") } ?? draft.name
        checked.description = problems.check { () throws(FieldProblem) in
            try DisplayText.optionalLabel(draft.description, field: "input.description")
        } ?? nil
        _ = problems.check { () throws(FieldProblem) in try tokenAmount(draft.tokenCost, field: "input.tokenCost", minimum: 0) }
        if let stock = draft.stock, !(0...configuration.maximumRewardStock).contains(stock) {
            problems.add(FieldProblem(field: "input.stock", reason: .outOfRange, message: "A stock is 0 to \(configuration.maximumRewardStock)."))
        }
        let maximumMembers = households.configuration.maximumMembersPerHousehold
        if let eligible = draft.eligibleMemberIDs {
            checked.eligibleMemberIDs = Array(Set(eligible)).sorted()
            if eligible.count > maximumMembers {
                problems.add(FieldProblem(field: "input.eligibleMemberIds", reason: .tooLong, message: "Name at most \(maximumMembers) members."))
            }
        }
        if draft.memberPrices.count > maximumMembers {
            problems.add(FieldProblem(field: "input.memberPrices", reason: .tooLong, message: "Give at most \(maximumMembers) prices."))
        }
        if draft.memberPrices.values.contains(where: { !(0...configuration.maximumTokenAmount).contains($0) }) {
            problems.add(FieldProblem(
                field: "input.memberPrices", reason: .outOfRange, message: "A price is 0 to \(configuration.maximumTokenAmount) tokens."))
        }
        if let eligible = checked.eligibleMemberIDs, draft.memberPrices.keys.contains(where: { !eligible.contains($0) }) {
            problems.add(FieldProblem(
                field: "input.memberPrices", reason: .notAllowed, message: "Give prices only to members the reward is for."))
        }
        try problems.throwIfAny()
        return checked
    }

    /// Refuses member ids of `draft` that are not of joined members of the household of `scope`
    /// (unknown, of another household, invited or departed alike).
    /// - Throws: `BAD_USER_INPUT` with reason `UNKNOWN_VALUE` on `input.eligibleMemberIds` and
    ///   `input.memberPrices`.
    private static func checkMembers(of draft: RewardDraft, _ scope: HouseholdScope) throws {
        let named = Set(draft.eligibleMemberIDs ?? []).union(draft.memberPrices.keys)
        guard !named.isEmpty else { return }
        let ids = named.sorted()
        let active = Set(try scope.query(
            """
            SELECT id FROM members WHERE household_id = {household} AND status = 'active'
            AND id IN (\(ChoreReferences.placeholders(ids.count)))
            """,
            ChoreReferences.arguments(ids)
        ).map { row -> String in try row["id"] })
        var problems = ProblemCollector()
        for (field, memberIDs) in [("input.eligibleMemberIds", draft.eligibleMemberIDs ?? []), ("input.memberPrices", Array(draft.memberPrices.keys))]
        where memberIDs.contains(where: { !active.contains($0) }) {
            problems.add(FieldProblem(field: field, reason: .unknownValue, message: "Name members of this household."))
        }
        try problems.throwIfAny()
    }

    /// Writes the `reward_members` rows of `draft`: its eligible members (with their prices) when
    /// it is restricted, else the members with prices of their own.
    private static func storeMembers(of draft: RewardDraft, rewardID: String, _ scope: HouseholdScope) throws {
        for memberID in (draft.eligibleMemberIDs ?? draft.memberPrices.keys.sorted()) {
            try scope.execute(
                "INSERT INTO reward_members (reward_id, household_id, member_id, token_cost) VALUES (?, {household}, ?, ?)",
                [rewardID, memberID, draft.memberPrices[memberID]])
        }
    }

    /// The reward `reference` names, as it is now (a mutation's result, or its replay's).
    private func reward(_ reference: RewardReference, viewer: Viewer) async throws -> AccessibleReward {
        try await read(in: reference.householdID, as: viewer) { try RewardRecord.find(id: reference.rewardID, $0) }
    }

    /// A reward with the viewer's access to its household.
    public typealias AccessibleReward = (reward: RewardRecord, access: HouseholdAccess)
}

/// The reward a mutation's result names, as ``MutationReplay`` stores it for a replay.
struct RewardReference: Codable {
    var householdID: String
    var rewardID: String
}
