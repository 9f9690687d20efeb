import HearthDomain
import HearthStore

extension ChoreService {
    /// An object of this service found by its global id.
    public enum Node: Sendable {
        /// A chore the viewer may see.
        case chore(ChoreRecord, ChoreAccess)
        /// A tag the viewer may see.
        case tag(TagRecord, ChoreAccess)
        /// A preset: built in, or saved by one of the viewer's households.
        case preset(ChorePreset)
        /// A share of personal chores the viewer made, receives or is asked to accept.
        case share(ChoreShareRecord)
    }

    /// The chores, tags, presets and shares among `ids` that `viewer` may see (`Query.node`/`nodes`): one
    /// statement per type the ids name (``GlobalID``), filtered to the viewer's personal rows, the
    /// households they are an active member of and the chores shared with them (read-only), so ids of others' objects are absent exactly like
    /// unknown ones; then one access check per household found. Ids of other types are not read at
    /// all. Callers bound the number of ids (the API takes at most 100).
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        var found: [String: Node] = [:]
        var wanted: [GlobalID.Kind: [String]] = [:]
        for id in Set(ids).sorted() {
            if let preset = BuiltInPresets.preset(id: id) {
                found[id] = .preset(preset)
            } else if let kind = GlobalID(rawValue: id)?.kind, [.chore, .tag, .chorePreset, .choreShare].contains(kind) {
                wanted[kind, default: []].append(id)
            }
        }
        guard !wanted.isEmpty else { return found }
        let read = try await pool.readPreferringCallingThread { [wanted] database -> [String: Node] in
            let owner = OwnerScope(Owner(viewer), database)
            // The rows are read through the viewer's memberships in this transaction: the checks find them.
            var accesses = HouseholdAccesses(viewer: viewer, database)
            var read: [String: Node] = [:]
            if let ids = wanted[.chore] {
                for chore in try Self.chores(ids: ids, owner) {
                    read[chore.id] = .chore(chore, try accesses.chores(of: chore))
                }
            }
            if let ids = wanted[.tag] {
                for tag in try owner.decode(
                    TagRecord.self,
                    """
                    SELECT \(TagRecord.columns) FROM tags WHERE id IN (\(ChoreReferences.placeholders(ids.count)))
                    AND (user_id = {owner} OR household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active'))
                    """,
                    ChoreReferences.arguments(ids)) {
                    read[tag.id] = .tag(tag, try accesses.chores(tag.householdID))
                }
            }
            if let ids = wanted[.chorePreset] {
                for preset in try HouseholdPresets.find(ids: ids, owner) { read[preset.id] = .preset(preset) }
            }
            if let ids = wanted[.choreShare] {
                for share in try Self.shares(ids: ids, viewer: viewer, in: database) { read[share.id] = .share(share) }
            }
            return read
        }
        return found.merging(read) { first, _ in first }
    }

    /// The chores among `ids` (not deleted) of `owner`'s account: their personal ones, those of
    /// the households they are an active member of, and those shared with them, in one statement.
    static func chores(ids: [String], _ owner: OwnerScope) throws -> [ChoreRecord] {
        try owner.decode(
            ChoreRecord.self,
            """
            SELECT \(ChoreRecord.columns) FROM chores WHERE id IN (\(ChoreReferences.placeholders(ids.count))) AND deleted_at IS NULL
            AND (user_id = {owner} OR household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                OR id IN (\(ChoreShares.sharedChoreIDs)))
            """,
            ChoreReferences.arguments(ids))
    }
}
