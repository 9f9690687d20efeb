import FoundationEssentials
import HearthStore

/// One bounded step of retention: deletes at most `limit` rows of one table that are past
/// `cutoff` (now minus the subject's horizon), inside the caller's write transaction, and
/// returns how many it deleted. The retention job repeats a rule until a step deletes fewer
/// than `limit`.
///
/// Every statement selects its victims by primary key in a bounded subquery
/// (`DELETE … WHERE key IN (SELECT key … LIMIT ?)`), portable SQL that both SQLite and
/// PostgreSQL run, using an index on the age column (migration 0008) so a step costs its
/// batch, not the table.
struct PruneRule: Sendable {
    /// What the rule prunes (whose horizon gives the cutoff).
    var subject: RetentionPolicy.Subject
    /// One step.
    var step: @Sendable (_ cutoff: Date, _ limit: Int, _ database: Database) throws -> Int

    /// A rule that runs one `DELETE` with the cutoff bound to each of its `cutoffs` first
    /// placeholders and the limit to the last.
    static func delete(_ subject: RetentionPolicy.Subject, cutoffs: Int = 1, _ sql: String) -> PruneRule {
        PruneRule(subject: subject) { cutoff, limit, database in
            try database.execute(sql, StatementArguments(Array(repeating: cutoff as (any DatabaseValueConvertible)?, count: cutoffs) + [limit]))
            return database.changedRowCount
        }
    }

    /// Every rule in the order a run applies them; `changeLog` records the `member.removed`
    /// of each expired invitation pruned.
    static func all(changeLog: ChangeLog) -> [PruneRule] {
        [
            PruneRule(subject: .changeLog) { cutoff, limit, database in
                try ChangeLog.prune(committedBefore: cutoff, limit: limit, in: database)
            },
            .delete(.notifications, """
                DELETE FROM notifications WHERE id IN (SELECT id FROM notifications WHERE created_at < ? ORDER BY created_at LIMIT ?)
                """),
            .delete(.mail, """
                DELETE FROM mail_outbox WHERE id IN (
                    SELECT id FROM mail_outbox WHERE created_at < ? AND status IN ('sent', 'failed') ORDER BY created_at LIMIT ?)
                """),
            // A session ends when it is revoked or its refresh token expires (never after its
            // absolute end, which bounds the refresh token's expiry). Its spent tokens go first,
            // in batches of their own: one session may have spent thousands.
            .delete(.sessions, cutoffs: 2, """
                DELETE FROM spent_refresh_tokens WHERE token_hash IN (
                    SELECT token_hash FROM spent_refresh_tokens WHERE session_id IN (
                        SELECT id FROM sessions WHERE revoked_at < ? OR refresh_expires_at < ?)
                    LIMIT ?)
                """),
            .delete(.sessions, cutoffs: 2, """
                DELETE FROM sessions WHERE id IN (
                    SELECT id FROM sessions WHERE revoked_at < ? OR refresh_expires_at < ? LIMIT ?)
                """),
            .delete(.emailTokens, cutoffs: 2, """
                DELETE FROM email_tokens WHERE token_id IN (
                    SELECT token_id FROM email_tokens
                    WHERE (used_at < ? OR expires_at < ?)
                      AND NOT EXISTS (
                        SELECT 1 FROM mail_outbox WHERE link_id = email_tokens.token_id AND link_kind = 'email_token')
                    LIMIT ?)
                """),
            // Google Calendar connections begun and never completed: one-time secrets too, on the same horizon.
            .delete(.emailTokens, """
                DELETE FROM google_authorizations WHERE state_hash IN (
                    SELECT state_hash FROM google_authorizations WHERE expires_at < ? ORDER BY expires_at LIMIT ?)
                """),
            PruneRule(subject: .invitations) { cutoff, limit, database in
                try pruneExpiredInvitations(before: cutoff, limit: limit, changeLog: changeLog, in: database)
            },
            .delete(.mutationReplays, """
                DELETE FROM mutation_replays WHERE (user_id, client_mutation_id) IN (
                    SELECT user_id, client_mutation_id FROM mutation_replays WHERE created_at < ? ORDER BY created_at LIMIT ?)
                """),
            PruneRule(subject: .tombstones) { cutoff, limit, database in
                try pruneTombstones(before: cutoff, limit: limit, in: database)
            },
            .delete(.analyticsEvents, """
                DELETE FROM analytics_events WHERE id IN (
                    SELECT id FROM analytics_events WHERE occurred_at < ? ORDER BY occurred_at LIMIT ?)
                """),
            .delete(.jobs, """
                DELETE FROM jobs WHERE id IN (
                    SELECT id FROM jobs WHERE updated_at < ? AND state IN ('done', 'dead') ORDER BY updated_at LIMIT ?)
                """),
        ]
    }

    /// Removes the tombstones of objects deleted before `cutoff`, oldest first, with the
    /// `client_ids` rows of those objects (the two go together: a registry row without its
    /// tombstone would answer a create as if the object still existed).
    private static func pruneTombstones(before cutoff: Date, limit: Int, in database: Database) throws -> Int {
        let ids: [String] = try database.query(
            "SELECT id FROM tombstones WHERE deleted_at < ? ORDER BY deleted_at LIMIT ?", [cutoff, limit]
        ).map { try $0["id"] }
        for id in ids {
            try database.execute("DELETE FROM client_ids WHERE id = ?", [id])
            try database.execute("DELETE FROM tombstones WHERE id = ?", [id])
        }
        return ids.count
    }

    /// Removes invitations that expired before `cutoff` and that no mail refers to any more,
    /// with their invited member records, as revoking them would: `member.removed` on the
    /// household's topic, so the admins' devices drop the invitee from the roster.
    private static func pruneExpiredInvitations(before cutoff: Date, limit: Int, changeLog: ChangeLog, in database: Database) throws -> Int {
        let expired = try database.query(
            """
            SELECT id, household_id, member_id FROM invitations
            WHERE expires_at < ?
              AND NOT EXISTS (SELECT 1 FROM mail_outbox WHERE link_id = invitations.token_id AND link_kind = 'invitation')
            ORDER BY expires_at LIMIT ?
            """,
            [cutoff, limit])
        for row in expired {
            let householdID: String = try row["household_id"]
            let memberID: String = try row["member_id"]
            try database.execute("DELETE FROM members WHERE id = ? AND household_id = ? AND status = 'invited'", [memberID, householdID])
            if database.changedRowCount == 1 {
                try changeLog.record(
                    topic: .household(householdID), kind: .memberRemoved,
                    payload: HouseholdChange(householdID: householdID, memberID: memberID), in: database)
            }
            try database.execute("DELETE FROM invitations WHERE id = ?", [try row["id"] as String])
        }
        return expired.count
    }
}
