import FoundationEssentials
import HearthDomain
import HearthStore

extension TokenService {
    /// Asks for a reward for `memberID` (the viewer's own member when `nil`): its price for that
    /// member is held from their balance, and one is taken from its stock, until an admin decides.
    /// Any member may ask for themselves; admins for anyone, and adults (parents, co-parents) for a
    /// child or shadow member. Everything is checked and changed in one transaction by conditional
    /// updates, so however many requests run at once no balance goes below zero and no stock below
    /// zero.
    /// - Throws: `NOT_FOUND` (a reward unknown, deleted or of another household; a member of
    ///   another household); `FORBIDDEN` with reason `REDEEM_FOR_OTHERS` asking for someone else
    ///   without the right, or `NOT_ELIGIBLE` for a reward that is not for that member;
    ///   `BAD_USER_INPUT` (`input.memberId` `NOT_ALLOWED`) for a member who has not joined or has
    ///   left; `CONFLICT` with reason `INSUFFICIENT_TOKENS`, `OUT_OF_STOCK`, or `LIMIT_REACHED` at
    ///   the pending-requests limit.
    public func redeemReward(
        rewardID: String, memberID: String? = nil, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleRedemption {
        let requested = try await mutate("redeemReward", by: viewer, replaying: clientMutationID, about: rewardID) { [self] database, now in
            let scope = try HouseholdScope.check(viewer: viewer, owning: .rewards, id: rewardID, notFound: .rewardNotFound, in: database)
            let reward = try RewardRecord.findOffered(id: rewardID, scope)
            let member = try Self.tokenHolder(id: memberID ?? scope.access.memberID, scope)
            try Self.checkMayAsk(for: member, scope.access)
            guard let price = reward.price(for: member.id) else {
                throw ServiceError(.forbidden, reason: .notEligible, "This reward is not offered to \(member.displayName).")
            }
            let pending = try scope.scalar(
                Int.self, "SELECT count(*) FROM reward_redemptions WHERE household_id = {household} AND member_id = ? AND status = 'pending'",
                [member.id]) ?? 0
            guard pending < configuration.maximumPendingRedemptionsPerMember else {
                throw ServiceError(
                    .conflict, reason: .limitReached, "\(member.displayName) has \(pending) requests waiting, the most allowed: wait for a decision first.")
            }
            if reward.stock != nil {
                try scope.execute(
                    "UPDATE rewards SET stock = stock - 1 WHERE id = ? AND household_id = {household} AND stock > 0", [reward.id])
                guard scope.changedRowCount == 1 else {
                    throw ServiceError(.conflict, reason: .outOfStock, "\(reward.name) is out of stock.")
                }
            }
            let id = GlobalID.make(.redemption, now: now).rawValue
            try scope.execute(
                """
                INSERT INTO reward_redemptions (id, household_id, reward_id, member_id, requested_by, token_cost, status, requested_at)
                VALUES (?, {household}, ?, ?, ?, ?, 'pending', ?)
                """,
                [id, reward.id, member.id, scope.access.memberID, price, now])
            let hold = try TokenLedger.append(
                NewLedgerEntry(memberID: member.id, kind: .redemptionHold, amount: -price, redemptionID: id, recordedBy: scope.access.memberID),
                scope, at: now)
            try record(
                .redemptionRequested, TokenChange(householdID: scope.access.householdID, entries: [hold], rewardID: reward.id, redemptionID: id),
                in: database)
            return RedemptionReference(householdID: scope.access.householdID, redemptionID: id)
        }
        return try await redemption(requested, viewer: viewer)
    }

    /// Grants a pending request: the held tokens are spent (a `REDEMPTION_DEBIT` entry of 0 tokens
    /// records it). Admins only.
    /// - Throws: `NOT_FOUND`, `FORBIDDEN`, `CONFLICT` with reason `ALREADY_REVIEWED` when it is not pending.
    public func approveRedemption(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> AccessibleRedemption {
        try await review("approveRedemption", id: id, as: .approved, reason: nil, viewer: viewer, clientMutationID: clientMutationID)
    }

    /// Refuses a pending request, with an optional reason (one line, up to 80 characters): the held
    /// tokens come back (a `REDEMPTION_RELEASE` entry) and so does the one taken from the stock.
    /// Admins only.
    /// - Throws: as ``approveRedemption(id:viewer:clientMutationID:)``; `BAD_USER_INPUT` on `input.reason`.
    public func rejectRedemption(id: String, reason: String?, viewer: Viewer, clientMutationID: String? = nil) async throws -> AccessibleRedemption {
        var problems = ProblemCollector()
        let reason = problems.check { () throws(FieldProblem) in try DisplayText.optionalLabel(reason, field: "input.reason") } ?? nil
        try problems.throwIfAny()
        return try await review("rejectRedemption", id: id, as: .rejected, reason: reason, viewer: viewer, clientMutationID: clientMutationID)
    }

    /// Decides the pending request `id` as an admin: moves it to `decision` by a conditional update
    /// (of two admins deciding at once, one wins; the other gets `ALREADY_REVIEWED`), appends the
    /// debit or the release, gives a rejected request's item back to the stock, and records the event.
    private func review(
        _ mutation: String, id: String, as decision: RedemptionStatus, reason: String?, viewer: Viewer, clientMutationID: String?
    ) async throws -> AccessibleRedemption {
        let reviewed = try await mutate(mutation, by: viewer, replaying: clientMutationID) { [self] database, now in
            let scope = try HouseholdScope.check(
                viewer: viewer, owning: .redemptions, id: id, requiring: .admin, notFound: .redemptionNotFound, in: database)
            let redemption = try RedemptionRecord.find(id: id, scope)
            try scope.execute(
                """
                UPDATE reward_redemptions SET status = ?, reason = ?, reviewed_by = ?, reviewed_at = ?
                WHERE id = ? AND household_id = {household} AND status = 'pending'
                """,
                [decision.rawValue, reason, scope.access.memberID, now, id])
            guard scope.changedRowCount == 1 else {
                // Read in this transaction before the update: decided, since the update found it not pending.
                throw ServiceError(
                    .conflict, reason: .alreadyReviewed, redemption.status == .approved ? "This request was already approved." : "This request was already rejected.")
            }
            let approved = decision == .approved
            if !approved {
                try scope.execute(
                    "UPDATE rewards SET stock = stock + 1 WHERE id = ? AND household_id = {household} AND stock IS NOT NULL",
                    [redemption.rewardID])
            }
            let entry = try TokenLedger.append(
                NewLedgerEntry(
                    memberID: redemption.memberID, kind: approved ? .redemptionDebit : .redemptionRelease,
                    amount: approved ? 0 : redemption.tokenCost, redemptionID: id, recordedBy: scope.access.memberID),
                scope, at: now)
            try record(
                approved ? .redemptionApproved : .redemptionRejected,
                TokenChange(householdID: scope.access.householdID, entries: [entry], rewardID: redemption.rewardID, redemptionID: id),
                in: database)
            return RedemptionReference(householdID: scope.access.householdID, redemptionID: id)
        }
        return try await redemption(reviewed, viewer: viewer)
    }

    /// Refuses a request by `access`'s member for `member` unless it is their own, they are an
    /// admin, or they are an adult asking for a child or shadow (`FORBIDDEN`, `REDEEM_FOR_OTHERS`).
    private static func checkMayAsk(for member: MemberRecord, _ access: HouseholdAccess) throws {
        guard member.id != access.memberID, !access.isAdmin else { return }
        guard access.member.kind.isAdult, !member.kind.isAdult else {
            throw ServiceError(
                .forbidden, reason: .redeemForOthers, "Only admins, or a parent for a child, can ask for a reward for someone else.")
        }
    }

    /// The request `reference` names, as it is now (a mutation's result, or its replay's).
    private func redemption(_ reference: RedemptionReference, viewer: Viewer) async throws -> AccessibleRedemption {
        try await read(in: reference.householdID, as: viewer) { try RedemptionRecord.find(id: reference.redemptionID, $0) }
    }

    /// A request for a reward with the viewer's access to its household.
    public typealias AccessibleRedemption = (redemption: RedemptionRecord, access: HouseholdAccess)
}

/// The request for a reward a mutation's result names, as ``MutationReplay`` stores it for a replay.
struct RedemptionReference: Codable {
    var householdID: String
    var redemptionID: String
}
