import FoundationEssentials
import HearthStore
import Support
import Synchronization

/// The one runner of timed and background work: leases due jobs from the ``JobQueue``, runs
/// each with the ``JobHandler`` registered for its kind on a thread of its own, and records
/// the outcome, retrying failures with backoff (``RetryPolicy``) until they are dead.
///
/// ``run()`` is the long-running loop the server starts (stop it by cancelling its task; jobs
/// already running finish and are recorded first). It does not poll: it sleeps until the
/// earliest due time or lease expiry in the table, and a commit that enqueues a job due
/// sooner (``JobQueue/enqueue(kind:payload:dueAt:dedupeKey:in:)``) or a job finishing wakes
/// it. The one exception is work written by another process (`hearth jobs retry`, a second
/// server sharing a database), which it notices within ``Configuration/pollInterval``.
///
/// Guarantees: a job commits with the change that enqueued it; it runs at its due time or
/// soon after, in due order, at most ``Configuration/workers`` at once; it runs until it
/// succeeds, fails permanently, or used ``RetryPolicy/maxAttempts`` attempts; a worker that
/// dies mid-job (even `kill -9`) leaves a lease that expires, after which the job runs again.
/// So a job runs at least once, and handlers make reruns harmless (the ``JobHandler``
/// contract): none is lost across restarts, none takes effect twice. Leases are built to be
/// shared by several processes (see `JobQueue+Leasing.swift`).
public final class JobScheduler: Sendable {
    /// How many jobs run at once, how failures are retried, how long leases last.
    public struct Configuration: Sendable {
        /// Jobs run at once (each on its own thread); 2 by default.
        public var workers: Int
        /// Retries and dead-lettering.
        public var retry: RetryPolicy
        /// How long a lease lasts unless renewed; 60 seconds by default. Running jobs' leases
        /// are renewed every third of it, so this is how long a dead worker's job waits
        /// before it runs again.
        public var leaseDuration: Duration
        /// The longest the loop sleeps without looking at the table; 60 seconds by default.
        /// Only work written by another process waits for it.
        public var pollInterval: Duration
        /// Names this scheduler as the owner of its leases (shown by `hearth jobs`).
        public var workerID: String

        /// The defaults, or the given values.
        public init(
            workers: Int = 2, retry: RetryPolicy = RetryPolicy(), leaseDuration: Duration = .seconds(60),
            pollInterval: Duration = .seconds(60), workerID: String = "worker-" + Base64URL.encode(SecureRandom.bytes(6))
        ) {
            precondition(workers >= 1, "a scheduler runs at least one job at a time")
            precondition(leaseDuration > .zero && pollInterval > .zero, "leases and polls take some time")
            self.workers = workers
            self.retry = retry
            self.leaseDuration = leaseDuration
            self.pollInterval = pollInterval
            self.workerID = workerID
        }
    }

    /// How an attempt ended.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The handler returned: the job is done.
        case done
        /// It failed and runs again later.
        case retry
        /// It failed for good (permanently, or out of attempts).
        case dead
    }

    /// What one ``runDueJobs(limit:)`` pass did.
    public struct PassReport: Sendable, Hashable {
        /// Jobs done.
        public var done = 0
        /// Jobs that failed and run again later.
        public var retrying = 0
        /// Jobs given up.
        public var dead = 0

        /// A pass that did nothing.
        public init() {}

        mutating func count(_ outcome: Outcome?) {
            switch outcome {
            case .done: done += 1
            case .retry: retrying += 1
            case .dead: dead += 1
            case nil: break
            }
        }
    }

    /// The queue whose jobs this scheduler runs.
    public let queue: JobQueue
    /// The kinds it runs, sorted.
    public let kinds: [JobKind]
    private let handlers: [JobKind: any JobHandler]
    private let configuration: Configuration
    private let logger: Logger
    private let running = Atomic<Int>(0)
    private let observers = Mutex<[@Sendable (Job, Outcome) -> Void]>([])

    /// A scheduler running `handlers` (one per kind) on `queue`'s jobs.
    public init(queue: JobQueue, handlers: [any JobHandler], configuration: Configuration = Configuration(), logger: Logger) {
        precondition(!handlers.isEmpty, "a scheduler runs at least one kind of job")
        self.queue = queue
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }) { _, _ in preconditionFailure("one handler per job kind") }
        self.kinds = self.handlers.keys.sorted()
        self.configuration = configuration
        self.logger = logger
    }

    /// Calls `observer` after each attempt's outcome is recorded (metrics, tests); register
    /// before ``run()``. It runs on the job's thread and must be quick.
    public func onFinish(_ observer: @escaping @Sendable (Job, Outcome) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    // MARK: The loop

    /// Runs due jobs as they fall due until the task is cancelled, then waits for the jobs
    /// still running and returns. A failing database is logged and tried again after
    /// ``Configuration/pollInterval``.
    public func run() async {
        let clock = queue.clock
        await withDiscardingTaskGroup { group in
            var nextRenewal: Date?
            while !Task.isCancelled {
                let now = clock.now
                var deadline = now.adding(configuration.pollInterval)
                do {
                    if running.load(ordering: .acquiring) == 0 {
                        nextRenewal = nil
                    } else if let renewal = nextRenewal, renewal <= now {
                        nextRenewal = try await renewLeases(at: now)
                    }
                    let free = configuration.workers - running.load(ordering: .acquiring)
                    if free > 0, let next = try await queue.pool.read({ [queue, kinds] in try queue.nextWakeDate(kinds: kinds, in: $0) }) {
                        if next <= now {
                            for job in try await leaseDueJobs(limit: free, at: now) {
                                running.add(1, ordering: .acquiringAndReleasing)
                                nextRenewal = nextRenewal ?? now.adding(configuration.leaseDuration / 3)
                                group.addTask { [self] in
                                    _ = await execute(job)
                                    running.subtract(1, ordering: .acquiringAndReleasing)
                                    queue.wakeUp.signal(dueAt: .distantPast)
                                }
                            }
                            continue  // more may be due, or a worker may still be free
                        }
                        deadline = min(deadline, next)
                    }
                    if let nextRenewal { deadline = min(deadline, nextRenewal) }
                } catch is CancellationError {
                    break
                } catch {
                    logger.error("cannot read or update the jobs table", ["error": "\(error)"])
                }
                await queue.wakeUp.wait(until: deadline, clock: clock)
            }
        }
    }

    /// One pass: hands back expired leases, then runs the jobs due now (at most `limit`), one
    /// after another, and returns what happened. For tests and tools; the server uses ``run()``.
    /// - Throws: ``StoreError`` when the table cannot be read or updated.
    @discardableResult
    public func runDueJobs(limit: Int = 100) async throws -> PassReport {
        var report = PassReport()
        for job in try await leaseDueJobs(limit: limit, at: queue.clock.now) {
            report.count(await execute(job))
        }
        return report
    }

    // MARK: Steps

    /// In one write transaction: hands back expired leases (telling their handlers), then
    /// leases up to `limit` due jobs.
    private func leaseDueJobs(limit: Int, at now: Date) async throws -> [Job] {
        let leaseEnd = now.adding(configuration.leaseDuration)
        let (reclaimed, leased) = try await queue.pool.write { [self] database in
            let reclaimed = try queue.reclaimExpiredLeases(kinds: kinds, maxAttempts: configuration.retry.maxAttempts, at: now, in: database)
            for job in reclaimed {
                recordFailure(of: job, JobFailure(.transient, job.lastError ?? "lease expired"), retryAt: job.state == .dead ? nil : now, in: database)
            }
            let leased = try queue.lease(
                kinds: kinds, owner: configuration.workerID, until: leaseEnd, limit: limit, at: now, in: database)
            return (reclaimed, leased)
        }
        for job in reclaimed {
            logger.warning("a job's worker stopped before finishing it", fields(job, [
                "job.state": job.state.rawValue, "error": job.lastError ?? "",
            ]))
            notify(job, job.state == .dead ? .dead : .retry)
        }
        return leased
    }

    /// Moves this scheduler's leases forward; returns when to do it next.
    private func renewLeases(at now: Date) async throws -> Date {
        let leaseEnd = now.adding(configuration.leaseDuration)
        try await queue.pool.write { [queue, configuration] database in
            try queue.renewLeases(owner: configuration.workerID, until: leaseEnd, at: now, in: database)
        }
        return now.adding(configuration.leaseDuration / 3)
    }

    /// Runs `job`'s handler on a thread of its own and records the outcome there (with the
    /// blocking pool calls: the outcome is recorded even while the loop's task is cancelled).
    /// Returns the outcome, or nil when it could not be recorded (the lease was lost, or the
    /// database failed: the job then runs again once its lease expires).
    private func execute(_ job: Job) async -> Outcome? {
        await DetachedThread.run(name: "hearth-job") { [self] in
            guard let handler = handlers[job.kind] else { return nil }
            let owner = configuration.workerID
            let completion = JobCompletion(job: job, owner: owner, queue: queue)
            let result = Result { try handler.run(job, completion: completion) }
            let now = queue.clock.now
            let outcome: Outcome
            do {
                switch result {
                case .success:
                    // Marked done with the handler's own commit, or now in a commit of its own.
                    guard try completion.isRecorded || queue.pool.write({ try queue.markDone(job, owner: owner, at: now, in: $0) }) else {
                        return leaseLost(job)
                    }
                    outcome = .done
                    logger.debug("job done", fields(job))
                case .failure(let error):
                    let failure = Self.failure(error)
                    let retryAt = configuration.retry.retryDate(afterAttempt: job.attempts, failure: failure, at: now)
                    let recorded = try queue.pool.write { database in
                        guard try queue.markFailed(job, owner: owner, error: failure.message, retryAt: retryAt, at: now, in: database) else {
                            return false
                        }
                        recordFailure(of: job, failure, retryAt: retryAt, in: database)
                        return true
                    }
                    guard recorded else { return leaseLost(job) }
                    if let retryAt {
                        outcome = .retry
                        logger.warning("job failed, will retry", fields(job, [
                            "error": failure.message, "job.retry_in_seconds": String(Int(retryAt.timeIntervalSince(now).rounded())),
                        ]))
                    } else {
                        outcome = .dead
                        logger.error("job failed for good", fields(job, ["error": failure.message, "job.failure": failure.code.rawValue]))
                    }
                }
            } catch {
                logger.error("cannot record a job's outcome; it runs again once its lease expires", fields(job, ["error": "\(error)"]))
                return nil
            }
            notify(job, outcome)
            return outcome
        }
    }

    /// What a handler's error means: its ``JobFailure``; a payload it cannot decode is
    /// permanent (no retry changes it); anything else is transient.
    private static func failure(_ error: any Error) -> JobFailure {
        if let failure = error as? JobFailure { return failure }
        if error is DecodingError { return JobFailure(.permanent, "the payload does not decode: \(error)") }
        return JobFailure(.transient, "\(error)")
    }

    /// Lets the handler of `job` record a failed attempt in its own tables, in a savepoint: a
    /// handler failing to do so is logged and undone alone, so the job's own record (and every
    /// other job's in the same transaction) still commits.
    private func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) {
        guard let handler = handlers[job.kind] else { return }
        do {
            try database.savepoint { try handler.recordFailure(of: job, failure, retryAt: retryAt, in: database) }
        } catch {
            logger.error("a job's handler could not record a failed attempt", fields(job, ["error": "\(error)"]))
        }
    }

    private func leaseLost(_ job: Job) -> Outcome? {
        logger.warning("a job finished after its lease was taken over; it may run again", fields(job))
        return nil
    }

    private func notify(_ job: Job, _ outcome: Outcome) {
        for observer in observers.withLock({ $0 }) { observer(job, outcome) }
    }

    private func fields(_ job: Job, _ extra: [String: String] = [:]) -> [String: String] {
        ["job.id": String(job.id), "job.kind": job.kind.rawValue, "job.attempt": String(job.attempts)].merging(extra) { $1 }
    }
}
