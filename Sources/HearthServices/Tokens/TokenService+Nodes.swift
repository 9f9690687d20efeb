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
    /// so an id of another household's object is absent exactly like an unknown one. Each id is
    /// looked up in the one table its type names; ids of other types cost no read.
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        let wanted = Dictionary(grouping: Set(ids).sorted().compactMap { id -> (GlobalID.Kind, String)? in
            guard case .typed(let typed) = GlobalID.form(of: id), [.reward, .redemption, .ledgerEntry].contains(typed.kind) else { return nil }
            return (typed.kind, id)
        }, by: \.0).mapValues { $0.map(\.1) }
        guard !wanted.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            var accesses = HouseholdAccesses(viewer: viewer, database)
            func rows(_ kind: GlobalID.Kind, _ ids: [String]) throws -> [(id: String, householdID: String)] {
                let placeholders = ChoreReferences.placeholders(ids.count)
                // One literal statement per table (the scope check reads each table's name).
                let sql = switch kind {
                case .reward:
                    """
                    SELECT id, household_id FROM rewards WHERE id IN (\(placeholders))
                    AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                    """
                case .redemption:
                    """
                    SELECT id, household_id FROM reward_redemptions WHERE id IN (\(placeholders))
                    AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                    """
                default:
                    """
                    SELECT id, household_id FROM token_ledger WHERE id IN (\(placeholders))
                    AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                    """
                }
                return try owner.query(sql, ChoreReferences.arguments(ids))
                    .map { row in (try row["id"], try row["household_id"]) }
            }
            var found: [String: Node] = [:]
            for (kind, ids) in wanted {
                for (id, householdID) in try rows(kind, ids) {
                    let granted = try accesses.access(householdID)
                    let scope = HouseholdScope(granted, database)
                    switch kind {
                    case .reward:
                        found[id] = .reward(try RewardRecord.find(id: id, scope), granted)
                    case .redemption:
                        let redemption = try RedemptionRecord.find(id: id, scope)
                        if Self.maySee(redemption, granted) { found[id] = .redemption(redemption, granted) }
                    default:
                        let entry = try scope.decodeOne(
                            LedgerEntryRecord.self,
                            "SELECT \(LedgerEntryRecord.columns) FROM token_ledger WHERE id = ? AND household_id = {household}", [id])
                        if let entry, Self.maySeeTokens(of: entry.memberID, granted) { found[id] = .ledgerEntry(entry, granted) }
                    }
                }
            }
            return found
        }
    }
}
