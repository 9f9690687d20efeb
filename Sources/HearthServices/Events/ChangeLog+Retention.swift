import FoundationEssentials
import HearthStore

/// The change log's horizon, a contract with clients: changes are kept for
/// `--retain-change-log` and then pruned (``prune(committedBefore:limit:in:)``, run by the
/// retention job), and a client whose cursor is older than what is kept gets `CURSOR_EXPIRED`
/// instead of a catch-up with a silent gap. The realtime change feed and offline sync rely
/// on it.
///
/// Which cursors are too old is decided by a watermark, not by the oldest row left: the
/// highest sequence retention deleted (`change_log_retention.pruned_through`). Sequences have
/// gaps (rolled-back transactions on PostgreSQL, superseded heartbeats deleted early), so the
/// oldest row cannot say whether anything after a cursor is missing; the watermark can.
extension ChangeLog {
    /// The highest sequence retention has pruned, 0 when none: a cursor below it may have
    /// missed changes.
    public static func prunedThrough(in database: Database) throws -> Int64 {
        try database.scalar(Int64.self, "SELECT pruned_through FROM change_log_retention WHERE id = 1") ?? 0
    }

    /// Throws `CURSOR_EXPIRED` unless every change after `cursor` is still in the log.
    static func requireRetained(after cursor: Int64, in database: Database) throws {
        let prunedThrough = try prunedThrough(in: database)
        guard cursor >= prunedThrough else {
            throw ServiceError(
                .cursorExpired,
                "This cursor (\(cursor)) is older than the change log keeps: changes up to \(prunedThrough) were pruned. "
                    + "Fetch the current state again and continue from its cursor.")
        }
    }

    /// Deletes up to `limit` changes committed before `cutoff`, oldest first, inside the
    /// caller's write transaction, and moves the watermark past them. Returns how many it
    /// deleted.
    static func prune(committedBefore cutoff: Date, limit: Int, in database: Database) throws -> Int {
        let deleted = try database.query(
            """
            DELETE FROM change_log WHERE sequence IN (
                SELECT sequence FROM change_log WHERE committed_at < ? ORDER BY committed_at, sequence LIMIT ?)
            RETURNING sequence
            """,
            [cutoff, limit]
        ).map { row -> Int64 in try row["sequence"] }
        if let highest = deleted.max() {
            try database.execute(
                "UPDATE change_log_retention SET pruned_through = ? WHERE id = 1 AND pruned_through < ?", [highest, highest])
        }
        return deleted.count
    }
}
