import FoundationEssentials
import HearthDomain
import HearthStore

extension TokenService {
    /// Corrects a member's balance by `amount` tokens (positive or negative, not zero) with a
    /// required note: an `ADJUSTMENT` entry. Admins only; for joined members and for departed ones
    /// (settling up), not invited ones.
    /// - Throws: `BAD_USER_INPUT` (`input.amount` `OUT_OF_RANGE`: zero or beyond the configured
    ///   maximum either way; `input.note`; `input.memberId` `NOT_ALLOWED` for an invited member),
    ///   `NOT_FOUND`, `FORBIDDEN`, `CONFLICT` with reason `INSUFFICIENT_TOKENS` when it would take
    ///   the balance below zero.
    public func adjustTokens(
        memberID: String, amount: Int, note: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> MovedTokens {
        var problems = ProblemCollector()
        if amount == 0 || amount.magnitude > configuration.maximumTokenAmount {
            problems.add(FieldProblem(
                field: "input.amount", reason: .outOfRange,
                message: "Adjust by 1 to \(configuration.maximumTokenAmount) tokens, up or down."))
        }
        let note = problems.check { () throws(FieldProblem) in try Self.note(note, field: "input.note") }
        try problems.throwIfAny()
        return try await moveTokens("adjustTokens", memberID: memberID, viewer: viewer, clientMutationID: clientMutationID, departedToo: true) { member, _ in
            NewLedgerEntry(memberID: member.id, kind: .adjustment, amount: amount, note: note)
        }
    }

    /// Gives a member `amount` bonus tokens with a required note, for good behaviour that is no
    /// chore: a `BONUS` entry. Admins only; for joined members.
    /// - Throws: `BAD_USER_INPUT` (`input.amount` `OUT_OF_RANGE`: 1 to the configured maximum;
    ///   `input.note`; `input.memberId` `NOT_ALLOWED` for a member who has not joined or has left),
    ///   `NOT_FOUND`, `FORBIDDEN`.
    public func giveBonusTokens(
        memberID: String, amount: Int, note: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> MovedTokens {
        var problems = ProblemCollector()
        let amount = problems.check { () throws(FieldProblem) in try tokenAmount(amount, field: "input.amount") }
        let note = problems.check { () throws(FieldProblem) in try Self.note(note, field: "input.note") }
        try problems.throwIfAny()
        return try await moveTokens("giveBonusTokens", memberID: memberID, viewer: viewer, clientMutationID: clientMutationID) { member, _ in
            NewLedgerEntry(memberID: member.id, kind: .bonus, amount: amount!, note: note)
        }
    }

    /// Records that a member was paid money for `tokens` of their tokens: a `PAYOUT` entry of
    /// minus `tokens`, with the household's `currencyPerToken` and currency in force now and the
    /// money, exactly `tokens × currencyPerToken` (a later change of the rate does not change it).
    /// Admins only; for joined and departed members. The note is optional.
    /// - Throws: `BAD_USER_INPUT` (`input.tokens` `OUT_OF_RANGE`, `input.note`, `input.memberId`),
    ///   `NOT_FOUND`, `FORBIDDEN`, `CONFLICT` with reason `INSUFFICIENT_TOKENS` beyond the balance.
    public func recordPayout(
        memberID: String, tokens: Int, note: String?, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> MovedTokens {
        var problems = ProblemCollector()
        let tokens = problems.check { () throws(FieldProblem) in try tokenAmount(tokens, field: "input.tokens") }
        let note = problems.check { () throws(FieldProblem) in try DisplayText.optionalLabel(note, field: "input.note") } ?? nil
        try problems.throwIfAny()
        return try await moveTokens("recordPayout", memberID: memberID, viewer: viewer, clientMutationID: clientMutationID, departedToo: true) {
            [households] member, scope in
            let economy = households.economy(of: try HouseholdRecord.find(scope))
            // Bounded: at most the maximum token amount times at most 9 digits before the point.
            guard let money = economy.currencyPerToken.value(of: tokens!) else {
                throw ServiceError(.badUserInput, "This payout is too large to record.")
            }
            return NewLedgerEntry(
                memberID: member.id, kind: .payout, amount: -tokens!, note: note,
                payout: (economy.currencyPerToken, money, economy.currencyCode))
        }
    }

    /// Appends the entry `entry` makes for the member `memberID` as an admin's mutation, and
    /// records `tokens.changed`; returns the entry as written.
    private func moveTokens(
        _ mutation: String, memberID: String, viewer: Viewer, clientMutationID: String?, departedToo: Bool = false,
        _ entry: @escaping @Sendable (MemberRecord, HouseholdScope) throws -> NewLedgerEntry
    ) async throws -> MovedTokens {
        let written = try await mutate(mutation, by: viewer, replaying: clientMutationID) { [self] database, now in
            let scope = try HouseholdScope.check(
                viewer: viewer, owning: .members, id: memberID, requiring: .admin, notFound: .memberNotFound, in: database)
            let member = try Self.tokenHolder(id: memberID, scope, departedToo: departedToo)
            var new = try entry(member, scope)
            new.recordedBy = scope.access.memberID
            let appended = try TokenLedger.append(new, scope, at: now)
            try record(.tokensChanged, TokenChange(householdID: scope.access.householdID, entries: [appended]), in: database)
            return LedgerEntryReference(householdID: scope.access.householdID, entryID: appended.id)
        }
        let (entry, access) = try await read(in: written.householdID, as: viewer) { scope in
            try scope.decodeOne(
                LedgerEntryRecord.self, "SELECT \(LedgerEntryRecord.columns) FROM token_ledger WHERE id = ? AND household_id = {household}",
                [written.entryID])
        }
        guard let entry else { throw ServiceError.memberNotFound }
        return (entry, access)
    }

    /// The member `id` of the household of `scope` whose tokens may move: one who has joined, or
    /// (with `departedToo`) has left, whose ledger stays theirs.
    /// - Throws: `NOT_FOUND` when there is no such member; `BAD_USER_INPUT` on `input.memberId`
    ///   (reason `NOT_ALLOWED`) for an invited member, or a departed one without `departedToo`.
    static func tokenHolder(id: String, _ scope: HouseholdScope, departedToo: Bool = false) throws -> MemberRecord {
        let member = try MemberRecord.find(id: id, scope)
        switch member.status {
        case .active: return member
        case .departed where departedToo: return member
        case .departed: throw ServiceError.memberNotAllowed("This person has left the household.")
        case .invited: throw ServiceError.memberNotAllowed("This person has not joined the household yet.")
        }
    }
}

extension TokenService {
    /// A ledger entry an admin wrote, with the admin's access to its household.
    public typealias MovedTokens = (entry: LedgerEntryRecord, access: HouseholdAccess)
}

extension ServiceError {
    /// `BAD_USER_INPUT` on `input.memberId` (reason `NOT_ALLOWED`): the member exists but cannot
    /// take part in this change, for the reason `message` gives.
    static func memberNotAllowed(_ message: String) -> ServiceError {
        ServiceError.invalid(InputProblems([FieldProblem(field: "input.memberId", reason: .notAllowed, message: message)]))
    }
}
