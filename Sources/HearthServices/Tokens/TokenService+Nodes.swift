import HearthDomain
import HearthStore

extension TokenService {
    /// A token-economy object found by its global id, with the access the viewer's membership gives.
    public enum Node: Sendable {
        /// A reward (offered or deleted) of a household the viewer is an active member of.
        case reward(RewardRecord, HouseholdAccess)
        /// A request for a reward the viewer may see (``maySee(_:_:)``).
        case redemption(RedemptionRecord, HouseholdAccess)
        /// A ledger entry the viewer may see (``maySeeTokens(of:_:)``).
        case ledgerEntry(LedgerEntryRecord, HouseholdAccess)
    }

    /// The rewards, requests and ledger entries among `ids` that `viewer` may see (`Query.node`/`nodes`),
    /// looked up only within the households they are an active member of (their ``OwnerScope``),
    /// so an id of another household's object is absent exactly like an unknown one. One statement
    /// per table the ids name (a reward's members' prices are a table of their own), then one access
    /// check per household found; ids of other types cost no read. Callers bound the number of ids
    /// (the API takes at most 100).
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        let wanted = Dictionary(grouping: Set(ids).sorted().compactMap { id -> (GlobalID.Kind, String)? in
            guard case .typed(let typed) = GlobalID.form(of: id), [.reward, .redemption, .ledgerEntry].contains(typed.kind) else { return nil }
            return (typed.kind, id)
        }, by: \.0).mapValues { $0.map(\.1) }
        guard !wanted.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            // The rows are read through the viewer's memberships in this transaction: the checks find them.
            var accesses = HouseholdAccesses(viewer: viewer, database)
            /// The records `sql` reads for `ids` (one statement), each with the access to its household.
            func granted<Record: Decodable>(
                _ type: Record.Type, _ ids: [String], _ sql: String, household: (Record) -> String
            ) throws -> [(Record, HouseholdAccess)] {
                try owner.decode(type, sql, ChoreReferences.arguments(ids)).map { ($0, try accesses.access(household($0))) }
            }
            var found: [String: Node] = [:]
            if let ids = wanted[.reward] {
                for reward in try RewardRecord.find(ids: ids, owner) { found[reward.id] = .reward(reward, try accesses.access(reward.householdID)) }
            }
            if let ids = wanted[.redemption] {
                for (redemption, access) in try granted(
                    RedemptionRecord.self, ids,
                    """
                    SELECT \(RedemptionRecord.columns) FROM reward_redemptions WHERE id IN (\(ChoreReferences.placeholders(ids.count)))
                    AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                    """,
                    household: \.householdID) where Self.maySee(redemption, access) {
                    found[redemption.id] = .redemption(redemption, access)
                }
            }
            if let ids = wanted[.ledgerEntry] {
                for (entry, access) in try granted(
                    LedgerEntryRecord.self, ids,
                    """
                    SELECT \(LedgerEntryRecord.columns) FROM token_ledger WHERE id IN (\(ChoreReferences.placeholders(ids.count)))
                    AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                    """,
                    household: \.householdID) where Self.maySeeTokens(of: entry.memberID, access) {
                    found[entry.id] = .ledgerEntry(entry, access)
                }
            }
            return found
        }
    }
}
