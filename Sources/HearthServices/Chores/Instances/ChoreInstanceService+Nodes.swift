import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// An object of this service found by its global id.
    public enum Node: Sendable {
        /// An instance the viewer may see, stored or computed.
        case instance(AccessibleInstance)
        /// A completion of a chore of the viewer's households or of their own (a deleted chore's too).
        case completion(HistoryEntry)
    }

    /// The instances and completions among `ids` that `viewer` may see (`Query.node`/`nodes`),
    /// looked up only for ids of those types; others' are absent exactly like unknown ones.
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        let wanted = Set(ids).filter { GlobalID.mayName(.choreInstance, $0) || GlobalID.mayName(.choreCompletion, $0) }
        guard !wanted.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { [self] database in
            var found: [String: Node] = [:]
            for id in wanted.sorted() {
                do {
                    if GlobalID.mayName(.choreInstance, id) {
                        found[id] = .instance(try resolve(id: id, viewer: viewer, in: database))
                    } else if let entry = try completion(id: id, viewer: viewer, in: database) {
                        found[id] = .completion(entry)
                    }
                } catch let error as ServiceError where error.code == .notFound {
                    continue
                }
            }
            return found
        }
    }

    /// Completion `id` when it is of a chore of the viewer's households or their own.
    private func completion(id: String, viewer: Viewer, in database: Database) throws -> HistoryEntry? {
        guard let row = try OwnerScope(Owner(viewer), database).queryOne(
            """
            SELECT h.household_id, h.user_id FROM chore_completions h WHERE h.id = ? AND (h.user_id = {owner} OR h.household_id IN (
                SELECT m.household_id FROM members m WHERE m.user_id = {owner} AND m.status = 'active'))
            """,
            [id])
        else { return nil }
        let access = try ChoreAccess.check(viewer: viewer, householdID: try row["household_id"], in: database)
        return try access.scope(database).queryOne(
            "SELECT \(HistoryEntry.columns) FROM chore_completions h JOIN chores c ON c.id = h.chore_id WHERE h.id = ? AND h.{scope}", [id]
        ).map { try HistoryEntry(row: $0, access: access) }
    }
}
