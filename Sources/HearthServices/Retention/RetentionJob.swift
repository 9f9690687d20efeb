import FoundationEssentials
import HearthStore
import Support

extension JobKind {
    /// Prunes every log-like table past its horizon (``RetentionJob``), then schedules itself again.
    public static let retention: JobKind = "retention.prune"
}

/// Retention: a recurring job that deletes what is past its horizon (``RetentionPolicy``)
/// from the change log, the mail outbox, sessions and spent refresh tokens, email tokens,
/// expired invitations, mutation replays, tombstones (with the client ids of deleted objects),
/// analytics events and finished jobs.
///
/// It runs every ``RetentionPolicy/interval``, on a grid (multiples of the interval since the
/// Unix epoch): each run enqueues the next occurrence with the occurrence's time as its dedupe
/// key, and the server schedules the next one at start (``schedule()``), so however often the
/// server restarts or however many processes share the database, one job holds each
/// occurrence. A run after downtime prunes once and continues on the grid; it does not catch
/// up on missed occurrences.
///
/// Each table is pruned in batches of ``RetentionPolicy/batchSize`` rows, each batch in a
/// write transaction of its own, so a run with a large backlog never holds the writer long.
///
/// Idempotent: pruning deletes only what is past its horizon at the time of the run, so a
/// second run deletes what has aged since, and the next occurrence's dedupe key makes
/// enqueueing it twice enqueue it once.
public struct RetentionJob: JobHandler {
    /// The job's input: the occurrence it stands for (informational; the key dedupes).
    struct Payload: Codable {
        var occurrence: Date
    }

    private let policy: RetentionPolicy
    private let jobs: JobQueue
    private let rules: [PruneRule]
    private let logger: Logger

    /// Retention of `policy`'s horizons in the database of `jobs`, whose clock decides the
    /// cutoffs.
    /// - Parameter changeLog: Where the `member.removed` of pruned invitations is recorded.
    public init(policy: RetentionPolicy, jobs: JobQueue, changeLog: ChangeLog, logger: Logger) {
        precondition(policy.violations().isEmpty, "the retention horizons contradict each other: \(policy.violations())")
        self.policy = policy
        self.jobs = jobs
        self.rules = PruneRule.all(changeLog: changeLog)
        self.logger = logger
    }

    public var kind: JobKind { .retention }

    /// Prunes everything past its horizon, then enqueues the next occurrence.
    public func run(_ job: Job) throws {
        let now = jobs.clock.now
        let pruned = try prune(at: now)
        let counts = pruned.filter { $0.value > 0 }
        if counts.isEmpty {
            logger.debug("retention found nothing past its horizon")
        } else {
            logger.info("retention pruned", Dictionary(uniqueKeysWithValues: counts.map { ("pruned.\($0.key.rawValue)", String($0.value)) }))
        }
        try jobs.pool.write { database in try scheduleNext(after: now, in: database) }
    }

    /// Deletes, batch by batch, every row past its horizon at `now`; returns how many per subject.
    /// - Throws: ``StoreError`` when a batch fails (the batches before it stay deleted).
    @discardableResult
    public func prune(at now: Date) throws -> [RetentionPolicy.Subject: Int] {
        var pruned: [RetentionPolicy.Subject: Int] = [:]
        for rule in rules {
            let cutoff = now.adding(.zero - policy[rule.subject])
            var deleted: Int
            repeat {
                deleted = try jobs.pool.write { database in try rule.step(cutoff, policy.batchSize, database) }
                pruned[rule.subject, default: 0] += deleted
            } while deleted == policy.batchSize
        }
        return pruned
    }

    /// Makes sure the next occurrence is scheduled (the server calls this at start).
    public func schedule() throws {
        let now = jobs.clock.now
        try jobs.pool.write { database in try scheduleNext(after: now, in: database) }
    }

    /// Enqueues the first occurrence on the grid after `now`, once.
    private func scheduleNext(after now: Date, in database: Database) throws {
        let interval = Double(max(1, policy.interval.components.seconds))
        let occurrence = Date(timeIntervalSince1970: ((now.timeIntervalSince1970 / interval).rounded(.down) + 1) * interval)
        try jobs.enqueue(
            kind: .retention, payload: Payload(occurrence: occurrence), dueAt: occurrence,
            dedupeKey: String(Int64(occurrence.timeIntervalSince1970)), in: database)
    }
}
