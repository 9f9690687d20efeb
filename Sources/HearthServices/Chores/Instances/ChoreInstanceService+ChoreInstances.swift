import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// The stored instances of chore `chore` (granted by `access`: a member of its household, its
    /// owner, or a recipient of a share of it), the latest occurrence first: the first `first` (at
    /// most 100, 100 when absent) after `after`. What a share's recipient follows a chore's progress
    /// by (FR-40, FR-41): each instance's status, steps and completions.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func instances(
        ofChore chore: ChoreRecord, access: ChoreAccess, first: Int? = nil, after: String? = nil
    ) async throws -> InstancePage<AccessibleInstance> {
        let (size, cursor) = try InstanceCursor.page(first: first, after: after, kind: .choreInstance, maximum: InstancePage<AccessibleInstance>.maximumSize)
        return try await pool.readPreferringCallingThread { database in
            var arguments: [(any DatabaseValueConvertible)?] = [chore.id]
            var sql = "SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE {scope} AND chore_id = ?"
            if let cursor {
                sql += " AND (occurrence_at, id) < (?, ?)"
                arguments += [cursor.time, cursor.id]
            }
            let rows = try access.scope(database).query(
                sql + " ORDER BY occurrence_at DESC, id DESC LIMIT ?", StatementArguments(arguments + [size + 1]))
            let edges = try rows.prefix(size).map { row in
                let instance = try ChoreInstanceRecord(row: row)
                return (cursor: InstanceCursor(time: instance.occurrenceAt, id: instance.id).text, node: (instance, chore, access))
            }
            return InstancePage(edges: edges, hasNextPage: rows.count > size, hasPreviousPage: cursor != nil)
        }
    }
}
