import FoundationEssentials
import HearthStore

/// The statements a ``JobScheduler`` runs the queue with: leasing due jobs, renewing and
/// reclaiming leases, recording outcomes.
///
/// **Leases are built to be shared.** Today one server process leases from SQLite, whose
/// single writer serializes the statements. The same statements are meant for several server
/// processes sharing one PostgreSQL database later, so each step is one conditional statement
/// that claims rows and says which it claimed (`UPDATE … WHERE id IN (SELECT … LIMIT n)
/// RETURNING …`), and every later write to a leased job is conditional on still holding its
/// lease (`AND lease_owner = ?`). On PostgreSQL the inner `SELECT`s of ``lease(kinds:owner:until:limit:at:in:)``
/// and ``reclaimExpiredLeases(kinds:maxAttempts:at:in:)`` end with `FOR UPDATE SKIP LOCKED`
/// (`DialectSQL.skipLockedRows`, empty on SQLite), so concurrent workers take disjoint rows
/// without waiting on each other, and a row another worker leased and committed meanwhile is
/// checked again (no longer pending) before it is taken; nothing else changes. A worker that dies keeps its rows `running` until
/// their lease expires; ``reclaimExpiredLeases(kinds:maxAttempts:at:in:)`` then hands them
/// back (or gives them up when out of attempts). Workers renew the leases of the jobs they
/// run well before they expire, so a long job is not run twice while its worker lives.
extension JobQueue {
    /// Marks up to `limit` pending jobs of `kinds` due at `now` as running under `owner`'s
    /// lease until `leaseEnd`, earliest due first, counting an attempt for each; returns them.
    func lease(kinds: [JobKind], owner: String, until leaseEnd: Date, limit: Int, at now: Date, in database: Database) throws -> [Job] {
        try database.decode(
            Job.self, Self.leaseSQL(kinds: kinds, locking: DialectSQL.skipLockedRows(database.dialect)),
            StatementArguments([owner, leaseEnd, now, now] + Self.arguments(kinds) + [limit])
        ).sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }
    }

    /// Hands back the jobs of `kinds` whose lease expired by `now` (their worker died or lost
    /// the database): pending again and due at once, or dead when they used up `maxAttempts`.
    /// Returns them as they are now.
    func reclaimExpiredLeases(kinds: [JobKind], maxAttempts: Int, at now: Date, in database: Database) throws -> [Job] {
        try database.decode(
            Job.self, Self.reclaimSQL(kinds: kinds, locking: DialectSQL.skipLockedRows(database.dialect)),
            StatementArguments([maxAttempts, now, now] + Self.arguments(kinds)))
    }

    /// Moves the leases `owner` holds to `leaseEnd`.
    func renewLeases(owner: String, until leaseEnd: Date, at now: Date, in database: Database) throws {
        try database.execute(
            "UPDATE jobs SET lease_expires_at = ?, updated_at = ? WHERE state = 'running' AND lease_owner = ?", [leaseEnd, now, owner])
    }

    /// The earliest time something of `kinds` may need doing: a pending job falling due or a
    /// lease expiring. Nil when there is neither.
    func nextWakeDate(kinds: [JobKind], in database: Database) throws -> Date? {
        let due = try database.scalar(Date.self, Self.nextDueSQL(kinds: kinds), StatementArguments(Self.arguments(kinds)))
        let expiry = try database.scalar(Date.self, Self.nextExpirySQL(kinds: kinds), StatementArguments(Self.arguments(kinds)))
        return [due, expiry].compactMap { $0 }.min()
    }

    /// Marks `job` done if `owner` still holds its lease; returns whether it did.
    func markDone(_ job: Job, owner: String, at now: Date, in database: Database) throws -> Bool {
        try database.execute(
            """
            UPDATE jobs SET state = 'done', lease_owner = NULL, lease_expires_at = NULL, last_error = NULL, updated_at = ?
            WHERE id = ? AND state = 'running' AND lease_owner = ?
            """,
            [now, job.id, owner])
        return database.changedRowCount == 1
    }

    /// Records a failed attempt of `job` if `owner` still holds its lease: pending again at
    /// `retryAt`, or dead when nil. Returns whether it did.
    func markFailed(_ job: Job, owner: String, error: String, retryAt: Date?, at now: Date, in database: Database) throws -> Bool {
        try database.execute(
            """
            UPDATE jobs SET state = ?, due_at = coalesce(?, due_at), lease_owner = NULL, lease_expires_at = NULL,
                last_error = ?, updated_at = ?
            WHERE id = ? AND state = 'running' AND lease_owner = ?
            """,
            [retryAt == nil ? Job.State.dead.rawValue : Job.State.pending.rawValue, retryAt, error, now, job.id, owner])
        return database.changedRowCount == 1
    }

    // MARK: The statements that pick jobs (their plans: JobQueuePlanTests)

    /// ``lease(kinds:owner:until:limit:at:in:)``'s statement: owner, lease end, now, now, the kinds, limit.
    /// - Parameter locking: ``DialectSQL/skipLockedRows(_:)`` of the store's dialect.
    static func leaseSQL(kinds: [JobKind], locking: String = "") -> String {
        """
        UPDATE jobs SET state = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
        WHERE id IN (
            SELECT id FROM jobs WHERE state = 'pending' AND due_at <= ? AND \(kindFilter(kinds))
            ORDER BY due_at, id LIMIT ? \(locking))
        RETURNING *
        """
    }

    /// ``reclaimExpiredLeases(kinds:maxAttempts:at:in:)``'s statement: attempts, now, now, the kinds.
    /// - Parameter locking: ``DialectSQL/skipLockedRows(_:)`` of the store's dialect.
    static func reclaimSQL(kinds: [JobKind], locking: String = "") -> String {
        """
        UPDATE jobs SET state = CASE WHEN attempts >= ? THEN 'dead' ELSE 'pending' END,
            lease_owner = NULL, lease_expires_at = NULL, updated_at = ?,
            last_error = 'its worker stopped before finishing (' || lease_owner || ', lease expired)'
        WHERE id IN (
            SELECT id FROM jobs WHERE state = 'running' AND lease_expires_at <= ? AND \(kindFilter(kinds))
            ORDER BY lease_expires_at, id \(locking))
        RETURNING *
        """
    }

    /// The earliest due time of a pending job of `kinds` (the kinds as arguments).
    static func nextDueSQL(kinds: [JobKind]) -> String {
        "SELECT min(due_at) FROM jobs WHERE state = 'pending' AND \(kindFilter(kinds))"
    }

    /// The earliest expiry of a lease on a job of `kinds` (the kinds as arguments).
    static func nextExpirySQL(kinds: [JobKind]) -> String {
        "SELECT min(lease_expires_at) FROM jobs WHERE state = 'running' AND \(kindFilter(kinds))"
    }

    /// `kind || '' IN (?, …)`: the condition on the kinds, written so that it cannot use an index.
    ///
    /// The scheduler's statements must read the partial indexes on `due_at` (pending jobs) and
    /// `lease_expires_at` (running ones) in order and stop at the first rows. With a plain
    /// `kind IN (…)`, SQLite's planner took the `UNIQUE (kind, dedupe_key)` index instead (an
    /// equality on its first column looks selective) and read every job of those kinds, finished
    /// ones included, sorting the pending ones for each pass: 0.1 s a statement, three statements
    /// per pass of at most `workers` jobs, with 100,000 reminders pending (tools/bench/reminders,
    /// docs/benchmarks.md "Reminders"). An expression on the column keeps the planner off that
    /// index; PostgreSQL reads it the same way.
    private static func kindFilter(_ kinds: [JobKind]) -> String {
        "kind || '' IN (" + Array(repeating: "?", count: kinds.count).joined(separator: ", ") + ")"
    }

    private static func arguments(_ kinds: [JobKind]) -> [(any DatabaseValueConvertible)?] {
        kinds.map { $0.rawValue }
    }
}
