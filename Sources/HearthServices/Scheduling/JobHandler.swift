import FoundationEssentials
import HearthStore

/// Does the work of one ``JobKind``; registered with the ``JobScheduler``, which calls it for
/// each due job of its kind.
///
/// **The contract: a handler is idempotent.** The scheduler runs a job at least once, not
/// exactly once. A worker can die (a crash, `kill -9`, a power cut, a lease lost to a long
/// stall) after the handler's effect happened but before the job was marked done; the job's
/// lease then expires and the job runs again, in this process after a restart or in another
/// one sharing the database. A handler must make that second run harmless: record its effect
/// and check the record first (the mail delivery marks its outbox row sent and skips a sent
/// row), or make the effect one that repeats to no change (pruning rows past a horizon), or
/// key what it creates on the job (an insert that does nothing on conflict). Where the
/// outside world cannot be asked (an SMTP server that accepted a message just before the
/// crash), say so in the handler's documentation: the mail is sent again with the same
/// `Message-ID`, which receivers use to drop the copy. Each handler's documentation states
/// how it meets the contract.
///
/// ``run(_:)`` blocks: it is called on a thread of its own, never on an event loop or Swift's
/// cooperative pool, so it may wait on the network or the database (synchronous pool calls).
public protocol JobHandler: Sendable {
    /// The kind of job this handler runs.
    var kind: JobKind { get }

    /// Runs one attempt of `job` (its ``Job/attempts`` counts this one).
    /// - Throws: ``JobFailure`` saying whether a retry may help; any other error counts as
    ///   transient. The job is then retried with backoff, or dead when permanent or out of
    ///   attempts.
    func run(_ job: Job) throws

    /// Runs one attempt of `job` as ``run(_:)`` does, with `completion`, which the handler may record
    /// in its last write transaction to mark the job done with its effect (``JobCompletion``). The
    /// scheduler calls this one; the default calls ``run(_:)``.
    func run(_ job: Job, completion: JobCompletion) throws

    /// Records a failed attempt in the handler's own tables, inside the write transaction that
    /// records it in the job's row (so both agree): `retryAt` is when the job runs again, nil
    /// when it is dead. Also called when a worker died running the job (its lease expired).
    /// The default does nothing.
    func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) throws
}

extension JobHandler {
    public func run(_ job: Job, completion: JobCompletion) throws {
        try run(job)
    }

    public func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) throws {}
}
