import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// An object of this service found by its global id.
    public enum Node: Sendable {
        /// An instance the viewer may see, stored or computed.
        case instance(AccessibleInstance)
        /// A completion of a chore of the viewer's households or of their own (a deleted chore's
        /// too), or, read-only, of a chore shared with them.
        case completion(HistoryEntry)
    }

    /// The instances and completions among `ids` that `viewer` may see (`Query.node`/`nodes`),
    /// looked up only for ids of those types, through the viewer's ``OwnerScope`` (their personal
    /// rows, the households they are an active member of, and the chores shared with them:
    /// ``ChoreShares``), so others' are absent exactly like
    /// unknown ones. One statement each for the stored instances, their chores and the
    /// completions, and one access check per household found; only an instance id that nothing
    /// stored answers is computed on its own (``computed(id:_:_:)``). Callers bound the number of
    /// ids (the API takes at most 100).
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        let unique = Set(ids).sorted()
        let instanceIDs = unique.filter { GlobalID.mayName(.choreInstance, $0) }
        let completionIDs = unique.filter { GlobalID.mayName(.choreCompletion, $0) }
        guard !instanceIDs.isEmpty || !completionIDs.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { [self] database in
            let owner = OwnerScope(Owner(viewer), database)
            // The rows are read through the viewer's memberships in this transaction: the checks find them.
            var accesses = HouseholdAccesses(viewer: viewer, database)
            var found: [String: Node] = [:]
            if !instanceIDs.isEmpty {
                for stored in try Self.storedInstances(ids: instanceIDs, owner, &accesses) { found[stored.instance.id] = .instance(stored) }
                for id in instanceIDs where found[id] == nil {
                    if let computed = try computed(id: id, owner, &accesses) { found[id] = .instance(computed) }
                }
            }
            if !completionIDs.isEmpty {
                for row in try owner.query(
                    """
                    SELECT \(HistoryEntry.columns) FROM chore_completions h JOIN chores c ON c.id = h.chore_id
                    WHERE h.id IN (\(ChoreReferences.placeholders(completionIDs.count))) AND (h.user_id = {owner} OR h.household_id IN (
                        SELECT m.household_id FROM members m WHERE m.user_id = {owner} AND m.status = 'active')
                        OR h.chore_id IN (\(ChoreShares.sharedChoreIDs)))
                    """,
                    ChoreReferences.arguments(completionIDs)) {
                    let entry = try HistoryEntry(row: row, access: try accesses.chores(try row["household_id"], ownerID: try row["user_id"]))
                    found[entry.completion.id] = .completion(entry)
                }
            }
            return found
        }
    }

    /// The stored instances among `ids` of the chores (not deleted) of `owner`'s account, with
    /// those chores: one statement each, whatever the number of ids.
    private static func storedInstances(
        ids: [String], _ owner: OwnerScope, _ accesses: inout HouseholdAccesses
    ) throws -> [AccessibleInstance] {
        let instances = try owner.query(
            """
            SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE id IN (\(ChoreReferences.placeholders(ids.count)))
            AND (user_id = {owner} OR household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                OR chore_id IN (\(ChoreShares.sharedChoreIDs)))
            """,
            ChoreReferences.arguments(ids)
        ).map(ChoreInstanceRecord.init(row:))
        guard !instances.isEmpty else { return [] }
        let chores = Dictionary(
            uniqueKeysWithValues: try ChoreService.chores(ids: Set(instances.map(\.choreID)).sorted(), owner).map { ($0.id, $0) })
        return try instances.compactMap { instance in
            // A deleted chore's instances are not found.
            guard let chore = chores[instance.choreID] else { return nil }
            return (instance, chore, try accesses.chores(of: chore))
        }
    }
}
