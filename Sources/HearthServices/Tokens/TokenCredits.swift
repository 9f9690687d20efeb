import FoundationEssentials
import HearthDomain
import HearthStore

/// The seam between chore completions and the ledger: what a completion earns is credited, and
/// what an undone one earned reversed, inside the transaction that records the completion's
/// change, whoever makes it.
///
/// The chore instances record their changes on the change log (`chore_instance.completed`,
/// `chore_instance.completion_approved`, `chore_instance.completion_undone`); ``register(on:)``
/// reacts to them in the same transaction (``ChangeReactions``), so a completion and its tokens
/// commit or roll back together, and the instances need know nothing of tokens. Crediting and
/// reversing are idempotent by completion id (the ledger's unique key), so a change seen twice
/// credits once.
enum TokenCredits {
    /// Credits what `completion` earns, split by the household's `earningsSplit` (``TokenSplit``),
    /// inside the caller's write transaction: one `CREDIT` entry per member who gets at least one
    /// token. A completion already credited (to anyone) is not credited again; the entries it got
    /// are returned. `recordedBy` is the member who made the change: whoever recorded the
    /// completion, or the approving admin.
    /// - Throws: `BAD_USER_INPUT` for a negative token count; `NOT_FOUND` when a recipient is not
    ///   a member of the household.
    @discardableResult
    static func credit(completion: CompletionCredit, recordedBy: String?, in scope: HouseholdScope, at now: Date) throws -> [LedgerEntryRecord] {
        guard completion.tokens >= 0 else {
            throw ServiceError(.badUserInput, "A chore's reward is a non-negative number of tokens.")
        }
        let earlier = try entries(of: completion.completionID, kind: .credit, scope)
        guard earlier.isEmpty else { return earlier }
        let split = EarningsSplit(rawValue: try HouseholdRecord.find(scope).earningsSplit) ?? .fallback
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

    /// Reverses the credits of the completion `completionID` (an undone completion), inside the
    /// caller's write transaction: one `REVERSAL` entry per credited member, of minus their credit.
    /// A completion never credited, or already reversed, changes nothing (the reversals already
    /// written are returned). `recordedBy` is the member undoing it.
    /// - Throws: `CONFLICT` with reason `INSUFFICIENT_TOKENS` when a member has already spent the
    ///   tokens: nothing is reversed, and the undoing fails with it (an admin corrects the balance first).
    @discardableResult
    static func reverse(completion completionID: String, recordedBy: String?, in scope: HouseholdScope, at now: Date) throws -> [LedgerEntryRecord] {
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
    static func entries(of completionID: String, kind: LedgerEntryKind, _ scope: HouseholdScope) throws -> [LedgerEntryRecord] {
        try scope.decode(
            LedgerEntryRecord.self,
            """
            SELECT \(LedgerEntryRecord.columns) FROM token_ledger
            WHERE household_id = {household} AND completion_id = ? AND kind = ? ORDER BY member_id
            """,
            [completionID, kind.rawValue])
    }

    // MARK: - Reacting to the chore instances

    /// Registers the reactions on `changeLog`: credit a final completion of a household chore
    /// once it counts (recorded `completed`, or approved), reverse one undone. Each records
    /// `tokens.changed` there when it wrote entries. Register once per change log.
    static func register(on changeLog: ChangeLog) {
        changeLog.reactions.register([.choreCompleted, .choreCompletionApproved]) { event, database in
            let change = try event.payload.decode(ChoreCompletionChange.self)
            guard change.isFinal, change.status == .completed, let householdID = change.householdID,
                  let access = try HouseholdAccess.scheduled(householdID: householdID, in: database)
            else { return }
            let scope = HouseholdScope(access, database)
            guard let (credit, recordedBy, reviewedBy) = try earnings(ofCompletion: change.completionID, scope) else { return }
            let entries = try self.credit(
                completion: credit, recordedBy: event.kind == .choreCompletionApproved ? reviewedBy : recordedBy, in: scope, at: event.committedAt)
            try recordChange(entries, householdID: householdID, completionID: change.completionID, on: changeLog, in: database)
        }
        changeLog.reactions.register([.choreCompletionUndone]) { event, database in
            let change = try event.payload.decode(ChoreCompletionChange.self)
            guard let householdID = change.householdID, let access = try HouseholdAccess.scheduled(householdID: householdID, in: database)
            else { return }
            let scope = HouseholdScope(access, database)
            let entries = try reverse(
                completion: change.completionID, recordedBy: try undoer(ofCompletion: change.completionID, scope), in: scope, at: event.committedAt)
            try recordChange(entries, householdID: householdID, completionID: change.completionID, on: changeLog, in: database)
        }
    }

    /// Records `tokens.changed` for `entries` written for a completion, when there are any.
    private static func recordChange(
        _ entries: [LedgerEntryRecord], householdID: String, completionID: String, on changeLog: ChangeLog, in database: Database
    ) throws {
        guard !entries.isEmpty else { return }
        try changeLog.record(
            topic: .household(householdID), kind: .tokensChanged,
            payload: TokenChange(householdID: householdID, entries: entries, completionID: completionID), in: database)
    }

    /// What the completion `id` of the household of `scope` earns, read from the chore tables:
    /// its chore's tokens; its member as the completer; the instance's member (a per-member
    /// instance) or else the chore's assignees; everyone whose completion of the instance counts
    /// (the steps' members). Also who recorded it and who reviewed it. `nil` for a completion of
    /// no member.
    static func earnings(ofCompletion id: String, _ scope: HouseholdScope) throws -> (CompletionCredit, recordedBy: String?, reviewedBy: String?)? {
        guard let row = try scope.queryOne(
            """
            SELECT c.chore_id, c.instance_id, c.member_id, c.recorded_by_member, c.reviewed_by, i.member_id AS instance_member, ch.tokens
            FROM chore_completions c JOIN chore_instances i ON i.id = c.instance_id JOIN chores ch ON ch.id = c.chore_id
            WHERE c.id = ? AND c.household_id = {household}
            """,
            [id]),
            let completer: String = try row["member_id"]
        else { return nil }
        let choreID: String = try row["chore_id"]
        let instanceMember: String? = try row["instance_member"]
        let assignees = try instanceMember.map { [$0] } ?? scope.query(
            "SELECT member_id FROM chore_assignees WHERE chore_id = ? AND household_id = {household} ORDER BY position", [choreID]
        ).map { row -> String in try row["member_id"] }
        let participants = try scope.query(
            """
            SELECT DISTINCT member_id FROM chore_completions
            WHERE instance_id = ? AND household_id = {household} AND status = 'completed' AND member_id IS NOT NULL ORDER BY member_id
            """,
            [try row["instance_id"] as String]
        ).map { row -> String in try row["member_id"] }
        let credit = CompletionCredit(
            completionID: id, choreID: choreID, tokens: try row["tokens"], completerID: completer, assigneeIDs: assignees,
            participantIDs: participants)
        return (credit, try row["recorded_by_member"] ?? completer, try row["reviewed_by"])
    }

    /// The member of the household of `scope` whose account undid the completion `id`, if any.
    private static func undoer(ofCompletion id: String, _ scope: HouseholdScope) throws -> String? {
        try scope.scalar(
            String.self,
            """
            SELECT m.id FROM chore_completions c JOIN members m ON m.user_id = c.undone_by AND m.household_id = c.household_id
            WHERE c.id = ? AND c.household_id = {household}
            """,
            [id])
    }
}
