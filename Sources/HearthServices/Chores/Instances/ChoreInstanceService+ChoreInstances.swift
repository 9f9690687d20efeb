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
        let (after, arguments) = InstanceCursor.older(than: cursor, columns: "occurrence_at, id")
        return try await pool.readPreferringCallingThread { database in
            let instances = try access.scope(database).query(
                "SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE {scope} AND chore_id = ?\(after) ORDER BY occurrence_at DESC, id DESC LIMIT ?",
                StatementArguments([chore.id] + arguments + [size + 1])
            ).map { (try ChoreInstanceRecord(row: $0), chore, access) }
            return InstancePage(reading: instances, size: size, after: cursor) { InstanceCursor(time: $0.instance.occurrenceAt, id: $0.instance.id) }
        }
    }
}
