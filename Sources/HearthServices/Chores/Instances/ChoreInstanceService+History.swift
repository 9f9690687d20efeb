import FoundationEssentials
import HearthDomain
import HearthStore

/// A completion in a history list, with its chore's title (the chore may have been deleted since:
/// history stays, FR-34) and the access it was read with.
public struct HistoryEntry: Sendable {
    /// The completion.
    public var completion: ChoreCompletionRecord
    /// Its chore's title, as it is now.
    public var choreTitle: String
    /// Whether its chore was deleted.
    public var isChoreDeleted: Bool
    /// What it was read with.
    public var access: ChoreAccess

    /// The columns ``init(row:access:)`` reads, from `chore_completions h` joined with `chores c`.
    static let columns = "\(ChoreCompletionRecord.columns.qualified(by: "h")), c.title AS chore_title, c.deleted_at AS chore_deleted_at"

    /// Reads an entry from `row` (``columns``).
    init(row: Row, access: ChoreAccess) throws {
        completion = try ChoreCompletionRecord(row: row)
        choreTitle = try row["chore_title"]
        isChoreDeleted = try row["chore_deleted_at"] as Date? != nil
        self.access = access
    }
}

extension ChoreInstanceService {
    /// The history of chore `chore` (FR-39), granted by `access` (any member of its household, or
    /// the owner of a personal chore): its live completions (done, or waiting for approval; undone
    /// and rejected ones are not history), steps' included, newest first: the first `first` (at
    /// most 100, 100 when absent) after `after`.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func history(ofChore choreID: String, access: ChoreAccess, first: Int? = nil, after: String? = nil) async throws -> InstancePage<HistoryEntry> {
        try await history(first: first, after: after, access: access, condition: "h.chore_id = ?", choreID)
    }

    /// The history of member `memberID` (FR-39) of the household `access` grants: the completions
    /// that are theirs (recorded for them included), of every chore, deleted ones too, newest
    /// first. A departed member's history keeps their name.
    /// - Throws: As ``history(ofChore:access:first:after:)``.
    public func history(ofMember memberID: String, access: HouseholdAccess, first: Int? = nil, after: String? = nil) async throws -> InstancePage<HistoryEntry> {
        try await history(first: first, after: after, access: ChoreAccess(access), condition: "h.member_id = ?", memberID)
    }

    private func history(
        first: Int?, after: String?, access: ChoreAccess, condition: String, _ value: String
    ) async throws -> InstancePage<HistoryEntry> {
        let (size, cursor) = try InstanceCursor.page(first: first, after: after, kind: .choreCompletion, maximum: InstancePage<HistoryEntry>.maximumSize)
        return try await pool.readPreferringCallingThread { database in
            var arguments: [(any DatabaseValueConvertible)?] = [value]
            var sql = """
                SELECT \(HistoryEntry.columns) FROM chore_completions h JOIN chores c ON c.id = h.chore_id
                WHERE h.{scope} AND \(condition) AND h.status IN ('completed', 'pending_approval')
                """
            if let cursor {
                sql += " AND (h.completed_at, h.id) < (?, ?)"
                arguments += [cursor.time, cursor.id]
            }
            let rows = try access.scope(database).query(
                sql + " ORDER BY h.completed_at DESC, h.id DESC LIMIT ?", StatementArguments(arguments + [size + 1]))
            let edges = try rows.prefix(size).map { row in
                let entry = try HistoryEntry(row: row, access: access)
                return (cursor: InstanceCursor(time: entry.completion.completedAt, id: entry.completion.id).text, node: entry)
            }
            return InstancePage(edges: edges, hasNextPage: rows.count > size, hasPreviousPage: cursor != nil)
        }
    }

    /// The live completions of `instanceIDs` (all granted by `access`), by instance id, oldest first.
    public func completions(of instanceIDs: [String], access: ChoreAccess) async throws -> [String: [ChoreCompletionRecord]] {
        guard !instanceIDs.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { try Self.completions(of: instanceIDs, access: access, in: SharedRead(database: $0)) }
    }

    /// ``completions(of:access:)`` in a shared read.
    public static func completions(of instanceIDs: [String], access: ChoreAccess, in read: SharedRead) throws -> [String: [ChoreCompletionRecord]] {
        guard !instanceIDs.isEmpty else { return [:] }
        var found: [String: [ChoreCompletionRecord]] = [:]
        try access.scope(read.database).query(
            """
            SELECT \(ChoreCompletionRecord.columns) FROM chore_completions WHERE {scope}
            AND instance_id IN (\(ChoreReferences.placeholders(instanceIDs.count))) AND status IN ('completed', 'pending_approval')
            ORDER BY completed_at, id
            """,
            ChoreReferences.arguments(instanceIDs)
        ).forEach { row in
            let completion = try ChoreCompletionRecord(row: row)
            found[completion.instanceID, default: []].append(completion)
        }
        return found
    }

    /// The chores `ids` granted by `access` that are not deleted, by id (what history entries and
    /// instances show as their chore).
    public func choreRecords(ids: [String], access: ChoreAccess) async throws -> [String: ChoreRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            let records = try access.scope(database).decode(
                ChoreRecord.self,
                "SELECT \(ChoreRecord.columns) FROM chores WHERE {scope} AND deleted_at IS NULL AND id IN (\(ChoreReferences.placeholders(ids.count)))",
                ChoreReferences.arguments(ids))
            return Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        }
    }
}
