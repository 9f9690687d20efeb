@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The statements that pick jobs read the partial indexes of migration 0008 in order (`jobs_due`
/// for pending jobs, `jobs_leases` for running ones) and stop at the first rows: with a plain
/// `kind IN (…)`, SQLite took the `UNIQUE (kind, dedupe_key)` index and read every job of the
/// kinds, done ones included, then sorted the pending ones, for every pass of the scheduler (0.1 s
/// a statement with 100,000 reminders pending, tools/bench/reminders). Plans, not timings.
struct JobQueuePlanTests {
    private static let kinds: [JobKind] = ["chore.remind", "mail.deliver", "push.deliver"]

    @Test(arguments: [
        (JobQueue.leaseSQL(kinds: kinds), "jobs_due"), (JobQueue.nextDueSQL(kinds: kinds), "jobs_due"),
        (JobQueue.reclaimSQL(kinds: kinds), "jobs_leases"), (JobQueue.nextExpirySQL(kinds: kinds), "jobs_leases"),
    ])
    func theStatementsThatPickJobsReadThePartialIndexInOrder(sql: String, index: String) async throws {
        try await MigratedDatabase.withPool { pool in
            let arguments = Array(repeating: nil as (any DatabaseValueConvertible)?, count: sql.filter { $0 == "?" }.count)
            let plan = try pool.read { database in
                try database.query("EXPLAIN QUERY PLAN \(sql)", StatementArguments(arguments)).map { try $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("USING INDEX \(index)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("sqlite_autoindex_jobs") || $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
