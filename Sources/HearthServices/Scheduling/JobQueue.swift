import FoundationEssentials
import HearthStore

/// The durable queue of timed and background work (table `jobs`, migration 0008): where
/// services enqueue jobs, inside their own write transaction, for the ``JobScheduler`` to run.
///
/// A job commits with the change it belongs to, or not at all, and the scheduler is woken
/// once the transaction commits if the job is due before it meant to look again:
///
/// ```swift
/// try await pool.write { db in
///     try db.execute("INSERT INTO mail_outbox …", […])
///     try jobs.enqueue(kind: .mailDelivery, payload: MailDeliveryJob.Payload(outboxID: id), dedupeKey: "\(id)", in: db)
/// }
/// ```
///
/// A dedupe key is unique per kind while its row exists (finished jobs are pruned after
/// `--retain-jobs`): enqueueing a key again adds nothing and answers the existing job's id.
/// Recurring work keys each occurrence by its due time, so however many processes schedule
/// the next run, one row holds it.
public struct JobQueue: Sendable {
    /// The store holding the jobs table. Not public: jobs are enqueued in the caller's
    /// transaction and read through the functions below.
    let pool: any DatabaseWriter
    /// The clock that stamps jobs and decides what is due.
    public let clock: any ServiceClock
    /// Wakes this process's scheduler after a commit that enqueued an earlier job.
    let wakeUp = JobWakeUp()

    /// A queue in `pool`'s database.
    public init(pool: any DatabaseWriter, clock: any ServiceClock = SystemClock()) {
        self.pool = pool
        self.clock = clock
    }

    /// Adds a job inside the caller's write transaction, unless a job of `kind` with
    /// `dedupeKey` exists; arranges for the scheduler to be woken once the transaction commits
    /// (nothing runs if it rolls back).
    ///
    /// - Parameters:
    ///   - payload: The handler's input, stored as JSON.
    ///   - dueAt: When it may run first; nil for now.
    ///   - dedupeKey: Makes the enqueue happen once per kind and key (see ``JobQueue``).
    ///   - database: The connection of a write transaction of ``pool``.
    /// - Returns: The id of the new job, or of the existing one with the same key.
    /// - Throws: `EncodingError` when the payload cannot be encoded, ``StoreError`` when the
    ///   insert fails.
    @discardableResult
    public func enqueue<Payload: Encodable>(
        kind: JobKind, payload: Payload, dueAt: Date? = nil, dedupeKey: String? = nil, in database: Database
    ) throws -> Int64 {
        let now = clock.now
        let due = dueAt ?? now
        let json = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        let inserted = try database.scalar(
            Int64.self,
            """
            INSERT INTO jobs (kind, payload, dedupe_key, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, dedupe_key) DO NOTHING RETURNING id
            """,
            [kind.rawValue, json, dedupeKey, due, now, now])
        guard let inserted else {
            // Only a key can conflict (NULL keys never do): answer the job holding it.
            let sql = "SELECT id FROM jobs WHERE kind = ? AND dedupe_key = ?"
            guard let existing = try database.scalar(Int64.self, sql, [kind.rawValue, dedupeKey]) else {
                throw StoreError(extendedCode: .constraintUnique, message: "a \(kind) job was not enqueued, yet none holds its key", sql: sql)
            }
            return existing
        }
        let wakeUp = wakeUp
        database.afterCommit { wakeUp.signal(dueAt: due) }
        return inserted
    }

    // MARK: Reading and reviving (`hearth jobs`)

    /// The newest jobs first, at most `limit`, only those in `state` and of `kind` when given.
    public static func jobs(state: Job.State?, kind: JobKind?, limit: Int, in database: Database) throws -> [Job] {
        // Only the filters given: PostgreSQL cannot type a parameter compared with nothing but NULL.
        let filters = [state.map { ("state = ?", $0.rawValue) }, kind.map { ("kind = ?", $0.rawValue) }].compactMap { $0 }
        let condition = filters.isEmpty ? "" : "WHERE " + filters.map(\.0).joined(separator: " AND ") + " "
        return try database.decode(
            Job.self, "SELECT * FROM jobs \(condition)ORDER BY id DESC LIMIT ?",
            StatementArguments(filters.map { $0.1 as (any DatabaseValueConvertible)? } + [limit]))
    }

    /// The job of `kind` waiting to run (pending or running) whose dedupe key starts with `prefix`
    /// and that is due first, if any: a question about work already decided (the calendar asks
    /// when a delayed reminder is to fire).
    public static func firstWaiting(kind: JobKind, keyPrefix prefix: String, in database: Database) throws -> Job? {
        // A range of keys, which the (kind, dedupe_key) index answers on every store (LIKE may not).
        guard let last = prefix.unicodeScalars.last, let after = Unicode.Scalar(last.value + 1) else { return nil }
        let end = String(prefix.unicodeScalars.dropLast()) + String(after)
        return try database.decode(
            Job.self,
            "SELECT * FROM jobs WHERE kind = ? AND dedupe_key >= ? AND dedupe_key < ? AND state IN ('pending', 'running') ORDER BY due_at, id LIMIT 1",
            [kind.rawValue, prefix, end]
        ).first
    }

    /// Makes this process's scheduler look for due jobs now, rather than when the job it waits for
    /// comes due: after the test endpoints moved the clock forward (a job may be due already).
    public func wake() {
        wakeUp.signal(dueAt: .distantPast)
    }

    /// Per kind, what is due, running and dead now, read on a reader (the metrics' families).
    public func statistics() async throws -> [JobKind: JobStatistics] {
        let now = clock.now
        return try await pool.read { database in try JobStatistics.read(at: now, in: database) }
    }

    /// The job with `id`, or nil.
    public static func job(id: Int64, in database: Database) throws -> Job? {
        try database.decodeOne(Job.self, "SELECT * FROM jobs WHERE id = ?", [id])
    }

    /// Makes a dead (or pending) job due at `now` with its attempts counted afresh, for an
    /// operator who mended what made it fail. A scheduler in another process picks it up
    /// within its `--job-poll-interval`.
    /// - Returns: The job as it is now, or nil when there is no job `id`.
    /// - Throws: ``JobRetryRefusal`` when the job is running or done.
    public static func retry(id: Int64, at now: Date, in database: Database) throws -> Job? {
        guard let job = try job(id: id, in: database) else { return nil }
        guard job.state == .dead || job.state == .pending else { throw JobRetryRefusal(job: job) }
        try database.execute(
            "UPDATE jobs SET state = 'pending', due_at = ?, attempts = 0, updated_at = ? WHERE id = ? AND state IN ('dead', 'pending')",
            [now, now, id])
        return try self.job(id: id, in: database)
    }
}

/// Why ``JobQueue/retry(id:at:in:)`` left a job alone: it is running (its worker, or its
/// lease's expiry, decides what happens next) or done.
public struct JobRetryRefusal: Error, Sendable, CustomStringConvertible {
    /// The job as it is.
    public var job: Job

    public var description: String {
        switch job.state {
        case .running: "job \(job.id) is running (leased by \(job.leaseOwner ?? "?")); it runs again by itself if its worker died"
        default: "job \(job.id) is \(job.state.rawValue); only dead or pending jobs are retried"
        }
    }
}
