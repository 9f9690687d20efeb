import FoundationEssentials
import HearthStore

/// How the jobs of one kind stand at a moment: what `/metrics` reports as `hearth_jobs_due`,
/// `hearth_jobs_running`, `hearth_jobs_dead` and `hearth_jobs_lag_seconds`.
public struct JobStatistics: Sendable, Hashable {
    /// Pending jobs whose due time has come.
    public var due = 0
    /// Jobs leased by a worker.
    public var running = 0
    /// Jobs given up and kept for inspection (until `--retain-jobs` after they died).
    public var dead = 0
    /// How long the oldest due job has waited past its due time, in seconds; 0 when none is due.
    /// A steady rise means the workers do not keep up (or are not running).
    public var lagSeconds: Double = 0

    /// Empty statistics.
    public init() {}

    /// The statistics per kind at `now` (kinds without unfinished jobs are absent).
    public static func read(at now: Date, in database: Database) throws -> [JobKind: JobStatistics] {
        var result: [JobKind: JobStatistics] = [:]
        try database.forEachRow(
            """
            SELECT kind,
                sum(CASE WHEN state = 'pending' AND due_at <= ? THEN 1 ELSE 0 END) AS due,
                sum(CASE WHEN state = 'running' THEN 1 ELSE 0 END) AS running,
                sum(CASE WHEN state = 'dead' THEN 1 ELSE 0 END) AS dead,
                min(CASE WHEN state = 'pending' AND due_at <= ? THEN due_at END) AS oldest_due
            FROM jobs WHERE state <> 'done' GROUP BY kind
            """,
            [now, now]
        ) { row in
            var statistics = JobStatistics()
            statistics.due = try row["due"]
            statistics.running = try row["running"]
            statistics.dead = try row["dead"]
            if let oldest = try row["oldest_due"] as Date? { statistics.lagSeconds = max(0, now.timeIntervalSince(oldest)) }
            result[JobKind(rawValue: try row["kind"])] = statistics
        }
        return result
    }
}
