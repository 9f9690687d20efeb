import FoundationEssentials
import HearthDomain
import HearthStore

extension TokenService {
    // MARK: - The seam the chore instances call

    /// Credits what `completion` earns, split by the household's `earningsSplit`
    /// (``TokenSplit``), inside the caller's write transaction: one `CREDIT` entry per member who
    /// gets at least one token. Idempotent by completion id: a completion already credited (to
    /// anyone) is not credited again, and the entries it got are returned. `recordedBy` is the
    /// member who made the change: whoever recorded the completion, or the approving admin.
    /// - Throws: `BAD_USER_INPUT` for a negative token count; `NOT_FOUND` when a recipient is not
    ///   a member of the household.
    @discardableResult
    func credit(completion: CompletionCredit, recordedBy: String?, in scope: HouseholdScope, at now: Date) throws -> [LedgerEntryRecord] {
        guard completion.tokens >= 0 else {
            throw ServiceError(.badUserInput, "A chore's reward is a non-negative number of tokens.")
        }
        let earlier = try entries(of: completion.completionID, kind: .credit, scope)
        guard earlier.isEmpty else { return earlier }
        let split = households.economy(of: try HouseholdRecord.find(scope)).earningsSplit
        let shares = TokenSplit.apportion(
            completion.tokens,
            weights: TokenSplit.recipients(
                split, completer: completion.completerID, assignees: completion.assigneeIDs, participants: completion.participantIDs),
            seed: completion.completionID)
        return try shares.keys.sorted().map { memberID in
            _ = try MemberRecord.find(id: memberID, scope)
            return try TokenLedger.append(
                NewLedgerEntry(
                    memberID: memberID, kind: .credit, amount: shares[memberID]!, completionID: completion.completionID,
                    choreID: completion.choreID, recordedBy: recordedBy),
                scope, at: now)
        }
    }

    /// Reverses the credits of the completion `completionID` (an uncompleted completion), inside the
    /// caller's write transaction: one `REVERSAL` entry per credited member, of minus their credit.
    /// Idempotent: a completion never credited, or already reversed, changes nothing (the
    /// reversals already written are returned). `recordedBy` is the member undoing it.
    /// - Throws: `CONFLICT` with reason `INSUFFICIENT_TOKENS` when a member has already spent the
    ///   tokens (nothing is reversed then: an admin corrects the balance first).
    @discardableResult
    func reverse(completion completionID: String, recordedBy: String?, in scope: HouseholdScope, at now: Date) throws -> [LedgerEntryRecord] {
        let earlier = try entries(of: completionID, kind: .reversal, scope)
        guard earlier.isEmpty else { return earlier }
        return try entries(of: completionID, kind: .credit, scope).map { credit in
            try TokenLedger.append(
                NewLedgerEntry(
                    memberID: credit.memberID, kind: .reversal, amount: -credit.amount, completionID: completionID, choreID: credit.choreID,
                    recordedBy: recordedBy),
                scope, at: now)
        }
    }

    /// The entries of `kind` for the completion `completionID`, in member-id order.
    private func entries(of completionID: String, kind: LedgerEntryKind, _ scope: HouseholdScope) throws -> [LedgerEntryRecord] {
        try scope.decode(
            LedgerEntryRecord.self,
            """
            SELECT \(LedgerEntryRecord.columns) FROM token_ledger
            WHERE household_id = {household} AND completion_id = ? AND kind = ? ORDER BY member_id
            """,
            [completionID, kind.rawValue])
    }

    // MARK: - Approval (admins)

    /// Approves a completion waiting for approval (`PENDING_APPROVAL`): it counts as done and its
    /// tokens are credited, in one transaction. Admins only.
    /// - Throws: `NOT_FOUND` for an unknown completion or one of a household the viewer is not in;
    ///   `FORBIDDEN` for members; `CONFLICT` with reason `ALREADY_REVIEWED` when it is not waiting
    ///   (already approved or rejected, or it needed no approval); `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func approveCompletion(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> LedgerEntries {
        let approved = try await mutate("approveCompletion", by: viewer, replaying: clientMutationID) { [self] database, now in
            let (scope, completion) = try completionAwaitingReview(id: id, viewer: viewer, in: database)
            try completions.markApproved(id: id, by: scope.access, at: now, scope)
            let entries = try credit(completion: completion.credit, recordedBy: scope.access.memberID, in: scope, at: now)
            try record(.completionApproved, TokenChange(householdID: scope.access.householdID, entries: entries, completionID: id), in: database)
            return LedgerEntriesReference(householdID: scope.access.householdID, entryIDs: entries.map(\.id))
        }
        return try await ledgerEntries(approved, viewer: viewer)
    }

    /// Rejects a completion waiting for approval, with an optional reason (one line, up to 80
    /// characters): no tokens are credited and its instance is open again. Admins only.
    /// - Throws: as ``approveCompletion(id:viewer:clientMutationID:)``; `BAD_USER_INPUT` on
    ///   `input.reason`.
    public func rejectCompletion(id: String, reason: String?, viewer: Viewer, clientMutationID: String? = nil) async throws {
        var problems = ProblemCollector()
        let reason = problems.check { () throws(FieldProblem) in try DisplayText.optionalLabel(reason, field: "input.reason") } ?? nil
        try problems.throwIfAny()
        _ = try await mutate("rejectCompletion", by: viewer, replaying: clientMutationID) { [self] database, now in
            let (scope, _) = try completionAwaitingReview(id: id, viewer: viewer, in: database)
            try completions.markRejected(id: id, reason: reason, by: scope.access, at: now, scope)
            try record(.completionRejected, TokenChange(householdID: scope.access.householdID, completionID: id), in: database)
            return LedgerEntriesReference(householdID: scope.access.householdID, entryIDs: [])
        }
    }

    /// The admin's scope of the household of the completion `id` and the completion, which must
    /// be waiting for approval.
    private func completionAwaitingReview(
        id: String, viewer: Viewer, in database: Database
    ) throws -> (HouseholdScope, ReviewableCompletion) {
        let notFound = ServiceError.completionNotFound
        guard let householdID = try completions.householdID(ofCompletion: id, in: database) else { throw notFound }
        let scope: HouseholdScope
        do {
            scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
        } catch let error as ServiceError where error.code == .notFound {
            throw notFound
        }
        guard let completion = try completions.completion(id: id, scope) else { throw notFound }
        guard completion.isPendingApproval else {
            throw ServiceError(.conflict, reason: .alreadyReviewed, "This completion is not waiting for approval.")
        }
        return (scope, completion)
    }

    /// The entries `reference` names, as they are now (a mutation's result, or its replay's), with
    /// the viewer's access to their household.
    func ledgerEntries(_ reference: LedgerEntriesReference, viewer: Viewer) async throws -> LedgerEntries {
        try await read(in: reference.householdID, as: viewer) { scope in
            guard !reference.entryIDs.isEmpty else { return [] }
            return try scope.decode(
                LedgerEntryRecord.self,
                """
                SELECT \(LedgerEntryRecord.columns) FROM token_ledger WHERE household_id = {household} AND id IN (\(Self.placeholders(reference.entryIDs.count)))
                ORDER BY member_id, position
                """,
                Self.arguments(reference.entryIDs))
        }
    }
}

extension TokenService {
    /// Ledger entries of one household, with the viewer's access to it.
    public typealias LedgerEntries = (entries: [LedgerEntryRecord], access: HouseholdAccess)
}

extension ServiceError {
    /// A completion that does not exist or is of a household the caller is not in.
    public static let completionNotFound = ServiceError(.notFound, "No such completion.")
}
