import Dispatch
import FoundationEssentials
import HearthHTTP
import HearthServices
import HearthStore

extension JobKind {
    /// The test-only job of ``TestJobRoutes``.
    static let testEffect: JobKind = "test.effect"
}

/// `/_test/jobs`, served only with `--test-endpoints`: a job kind whose runs and effect the
/// crash test can see, so it can kill the server in the middle of one and show that after the
/// restart the job runs again, to completion, with its effect once. Its table is created on
/// demand and is not part of the product's schema.
///
/// - `POST /_test/jobs` with body `complete`, `fail` or `block-first-attempt` enqueues a
///   `test.effect` job and answers 201 with its id; with `block-first-attempt` it answers once
///   the job's first attempt has recorded its effect and blocked (for good: the test kills the
///   server then).
/// - `GET /_test/jobs/:id` answers once the job is done or dead (at most 10 seconds), with
///   `state attempts runs effects`.
/// - `GET /_test/jobs/idle` answers `idle` once no job of any kind is due or running (at most 10
///   seconds, else 503 `busy`): after `POST /_test/clock`, once what came due has run.
struct TestJobRoutes {
    /// What a test job does.
    enum Mode: String, Codable {
        /// Records its effect and returns.
        case complete
        /// Records its effect and fails (transiently).
        case fail
        /// Records its effect, then on its first attempt blocks its thread until the process dies.
        case blockFirstAttempt = "block-first-attempt"
    }

    /// The handler of `test.effect` jobs.
    ///
    /// Idempotent the contract's way: it counts every run (the observation), but records its
    /// effect only if the record says it has not happened (`effects = 0`), so however often the
    /// job runs, its effect happens once.
    struct Handler: JobHandler {
        let pool: any DatabaseWriter
        let signals: TestJobSignals

        var kind: JobKind { .testEffect }

        func run(_ job: Job) throws {
            let mode = try job.decodePayload(Mode.self)
            try pool.write { database in
                try database.execute(
                    """
                    INSERT INTO test_job_runs (job_id, runs, effects) VALUES (?, 1, 0)
                    ON CONFLICT (job_id) DO UPDATE SET runs = test_job_runs.runs + 1
                    """,
                    [job.id])
                try database.execute("UPDATE test_job_runs SET effects = effects + 1 WHERE job_id = ? AND effects = 0", [job.id])
            }
            switch mode {
            case .complete: return
            case .fail: throw JobFailure(.transient, "test job failed as asked")
            case .blockFirstAttempt:
                guard job.attempts == 1 else { return }
                signals.reach(.started(job.id))
                DispatchSemaphore(value: 0).wait()
            }
        }
    }

    let jobs: JobQueue
    /// The store of `jobs`, where the runs table lives.
    let pool: any DatabaseWriter
    let signals: TestJobSignals

    /// How long a request waits at most for the moment it asks about.
    static let waitLimit: Duration = .seconds(10)

    /// Creates the runs table when missing.
    static func prepare(_ pool: any DatabaseWriter) throws {
        try pool.write { database in
            try database.execute(
                "CREATE TABLE IF NOT EXISTS test_job_runs (job_id INTEGER PRIMARY KEY, runs INTEGER NOT NULL, effects INTEGER NOT NULL)")
        }
    }

    /// The handler to register with the scheduler.
    var handler: Handler { Handler(pool: pool, signals: signals) }

    /// Lets `scheduler` tell the routes when a test job finished.
    func observe(_ scheduler: JobScheduler) {
        scheduler.onFinish { [signals] job, outcome in
            if job.kind == .testEffect && outcome != .retry { signals.reach(.finished(job.id)) }
        }
    }

    /// Adds the routes.
    func register(in router: inout Router) {
        router.on(.post, "/_test/jobs") { [jobs, pool, signals] request in
            guard let mode = Mode(rawValue: String(decoding: request.body, as: UTF8.self)) else {
                return .text("the body must be complete, fail or block-first-attempt", status: .badRequest)
            }
            let id = try await pool.write { database in try jobs.enqueue(kind: .testEffect, payload: mode, in: database) }
            if mode == .blockFirstAttempt, await !signals.wait(for: .started(id), timeout: Self.waitLimit) {
                return .text("job \(id) did not start", status: .serviceUnavailable)
            }
            return .text("\(id)", status: .created)
        }
        router.on(.get, "/_test/jobs/idle") { [jobs] _ in
            // Waits (at most the limit) until no job is due or running at the clock's time: what the
            // end-to-end tests wait for after moving the clock, instead of sleeping.
            let deadline = ContinuousClock.now + Self.waitLimit
            while ContinuousClock.now < deadline {
                let busy = try await jobs.statistics().values.reduce(0) { $0 + $1.due + $1.running }
                if busy == 0 { return .text("idle") }
                try await Task.sleep(for: .milliseconds(10))
            }
            return .text("busy", status: .serviceUnavailable)
        }
        router.on(.get, "/_test/jobs/:id") { [pool, signals] request in
            guard let id = Int64(request.parameters["id"] ?? "") else { return .text("the id is a job id", status: .badRequest) }
            if try await Self.report(id, pool)?.finished != true {
                _ = await signals.wait(for: .finished(id), timeout: Self.waitLimit)
            }
            guard let report = try await Self.report(id, pool) else { return .text("no job \(id)", status: .notFound) }
            return .text(report.text)
        }
    }

    /// Job `id`'s state, attempts, runs and effects, or nil when there is no such job.
    private static func report(_ id: Int64, _ pool: any DatabaseWriter) async throws -> (text: String, finished: Bool)? {
        try await pool.read { database in
            guard let job = try JobQueue.job(id: id, in: database) else { return nil }
            let row = try database.queryOne("SELECT runs, effects FROM test_job_runs WHERE job_id = ?", [id])
            let runs: Int = try row?["runs"] ?? 0
            let effects: Int = try row?["effects"] ?? 0
            return ("\(job.state.rawValue) \(job.attempts) \(runs) \(effects)", job.state == .done || job.state == .dead)
        }
    }
}
