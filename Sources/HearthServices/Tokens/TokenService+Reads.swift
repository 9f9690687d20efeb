import FoundationEssentials
import HearthDomain
import HearthStore

/// A member's tokens as the viewer may see them (``TokenService/tokens(of:_:)``).
public struct TokenBalance: Sendable, Hashable {
    /// What they can spend: the sum of their ledger entries (held tokens already taken out).
    public var balance: Int
    /// Tokens held for their pending requests for rewards.
    public var held: Int
}

extension TokenService {
    /// Whether the viewer of `access` may see the tokens of `memberID`: their own, or any member's
    /// for the household's admins.
    public static func maySeeTokens(of memberID: String, _ access: HouseholdAccess) -> Bool {
        access.isAdmin || access.memberID == memberID
    }

    /// The tokens of `member` (of the household of `access`); `nil` when the viewer may not see
    /// them (``maySeeTokens(of:_:)``).
    public func tokens(of member: MemberRecord, _ access: HouseholdAccess) async throws -> TokenBalance? {
        guard Self.maySeeTokens(of: member.id, access), member.householdID == access.householdID else { return nil }
        return try await pool.readPreferringCallingThread { database in
            let scope = HouseholdScope(access, database)
            let held = try scope.scalar(
                Int.self,
                "SELECT sum(token_cost) FROM reward_redemptions WHERE household_id = {household} AND member_id = ? AND status = 'pending'",
                [member.id]) ?? 0
            return TokenBalance(balance: try TokenLedger.balance(of: member.id, scope), held: held)
        }
    }

    /// A page of the ledger of `member` (of the household of `access`), newest entry first; `nil`
    /// when the viewer may not see it (``maySeeTokens(of:_:)``).
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func ledger(of member: MemberRecord, _ access: HouseholdAccess, first: Int? = nil, after: String? = nil) async throws
        -> TokenPage<LedgerEntryRecord>?
    {
        guard Self.maySeeTokens(of: member.id, access), member.householdID == access.householdID else { return nil }
        var problems = ProblemCollector()
        let size = problems.check { () throws(FieldProblem) in try TokenPage<LedgerEntryRecord>.size(first) }
        let afterPosition = problems.check { () throws(FieldProblem) -> Int? in
            guard let parts = try TokenPage<LedgerEntryRecord>.parts(of: after, count: 1) else { return nil }
            guard let position = Int(parts[0]), position > 0 else { throw TokenPage<LedgerEntryRecord>.invalidCursor }
            return position
        } ?? nil
        try problems.throwIfAny()
        return try await pool.readPreferringCallingThread { database in
            let scope = HouseholdScope(access, database)
            let count = try scope.scalar(
                Int.self, "SELECT entry_count FROM token_balances WHERE member_id = ? AND household_id = {household}", [member.id]) ?? 0
            let before = afterPosition ?? count + 1
            let entries = try scope.decode(
                LedgerEntryRecord.self,
                """
                SELECT \(LedgerEntryRecord.columns) FROM token_ledger
                WHERE household_id = {household} AND member_id = ? AND position < ? ORDER BY position DESC LIMIT ?
                """,
                [member.id, before, size! + 1])
            return TokenPage(
                edges: entries.prefix(size!).map { (TokenPage<LedgerEntryRecord>.cursor([String($0.position)]), $0) },
                hasNextPage: entries.count > size!, hasPreviousPage: before <= count, totalCount: count)
        }
    }

    /// The rewards the household of `access` offers, by name.
    public func rewards(_ access: HouseholdAccess) async throws -> [RewardRecord] {
        try await pool.readPreferringCallingThread { database in
            try RewardRecord.find(HouseholdScope(access, database), where: "deleted_at IS NULL")
        }
    }

    /// The reward `id` of the household of `access`, deleted or not (what a request names).
    /// - Throws: `NOT_FOUND` when it has none by that id.
    public func reward(id: String, _ access: HouseholdAccess) async throws -> RewardRecord {
        try await pool.readPreferringCallingThread { database in try RewardRecord.find(id: id, HouseholdScope(access, database)) }
    }

    /// A page of the requests for rewards of the household of `access`, newest first, with
    /// `status` when given: every request for its admins; for others the ones for them or made by
    /// them.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func redemptions(
        _ access: HouseholdAccess, status: RedemptionStatus? = nil, first: Int? = nil, after: String? = nil
    ) async throws -> TokenPage<RedemptionRecord> {
        var problems = ProblemCollector()
        let size = problems.check { () throws(FieldProblem) in try TokenPage<RedemptionRecord>.size(first) }
        let cursor = problems.check { () throws(FieldProblem) in try TokenPage<RedemptionRecord>.parts(of: after, count: 2) } ?? nil
        try problems.throwIfAny()
        var filter = ""
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let status {
            filter += " AND status = ?"
            arguments.append(status.rawValue)
        }
        if !access.isAdmin {
            filter += " AND (member_id = ? OR requested_by = ?)"
            arguments += [access.memberID, access.memberID]
        }
        let listed = filter
        let listedArguments = arguments
        return try await pool.readPreferringCallingThread { database in
            let scope = HouseholdScope(access, database)
            let position = cursor.map { _ in " AND (requested_at, id) < (?, ?)" } ?? ""
            let rows = try scope.query(
                """
                SELECT \(RedemptionRecord.columns) FROM reward_redemptions WHERE household_id = {household}\(listed)\(position)
                ORDER BY requested_at DESC, id DESC LIMIT ?
                """,
                StatementArguments(listedArguments + (cursor ?? []).map { $0 as (any DatabaseValueConvertible)? } + [size! + 1]))
            let edges = try rows.prefix(size!).map { row in
                (TokenPage<RedemptionRecord>.cursor([try row["requested_at"], try row["id"]]), try row.decode(RedemptionRecord.self))
            }
            let hasPrevious = try cursor.map { parts in
                try scope.scalar(
                    Bool.self,
                    "SELECT EXISTS (SELECT 1 FROM reward_redemptions WHERE household_id = {household}\(listed) AND (requested_at, id) >= (?, ?))",
                    StatementArguments(listedArguments + parts.map { $0 as (any DatabaseValueConvertible)? })) ?? false
            } ?? false
            let total = try scope.scalar(
                Int.self, "SELECT count(*) FROM reward_redemptions WHERE household_id = {household}\(listed)", StatementArguments(listedArguments))
            return TokenPage(edges: edges, hasNextPage: rows.count > size!, hasPreviousPage: hasPrevious, totalCount: total ?? 0)
        }
    }

    /// Whether the viewer of `access` may see `redemption`: admins every one, others those for or by them.
    public static func maySee(_ redemption: RedemptionRecord, _ access: HouseholdAccess) -> Bool {
        access.isAdmin || redemption.memberID == access.memberID || redemption.requestedBy == access.memberID
    }
}

extension TokenService {
    // MARK: - Related rows of many objects at once (the API's batches)

    /// The rewards `ids` of the household of `access`, deleted ones included, by id.
    public func rewards(ids: [String], _ access: HouseholdAccess) async throws -> [String: RewardRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            try RewardRecord.find(HouseholdScope(access, database), where: "id IN (\(ChoreReferences.placeholders(ids.count)))", ids)
                .reduce(into: [:]) { $0[$1.id] = $1 }
        }
    }

    /// The requests for rewards `ids` of the household of `access` the viewer may see, by id.
    public func redemptions(ids: [String], _ access: HouseholdAccess) async throws -> [String: RedemptionRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            try HouseholdScope(access, database).decode(
                RedemptionRecord.self,
                "SELECT \(RedemptionRecord.columns) FROM reward_redemptions WHERE household_id = {household} AND id IN (\(ChoreReferences.placeholders(ids.count)))",
                ChoreReferences.arguments(ids)
            ).filter { Self.maySee($0, access) }.reduce(into: [:]) { $0[$1.id] = $1 }
        }
    }
}
