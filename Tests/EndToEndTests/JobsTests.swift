import Foundation
import Glibc
import HearthHTTP
import HearthStore
import Testing

/// The job scheduler in the real binary, through the `--test-endpoints` job kind whose runs and
/// effect can be seen: a job killed with SIGKILL mid-run runs again after the restart, to
/// completion, with its effect once; a dead job is listed, shown and revived with
/// `hearth jobs`; `/metrics` reports the jobs.
@Suite struct JobsTests {
    /// A short lease, so the killed job's lease expires a second after the kill.
    private static let arguments = ["--test-endpoints", "--access-log", "off", "--job-lease", "1s"]

    @Test func aJobKilledMidRunRunsAgainToCompletionWithItsEffectOnce() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        // Answers once the job's first attempt has recorded its effect and blocked for good.
        let started = try server.post("/_test/jobs", "block-first-attempt")
        try #require(started.status == 201, "\(started.text)")
        let id = started.text
        #expect(server.stop(signal: SIGKILL) == SIGKILL)
        let killed = try HearthCommand.run(["jobs", "show", id, "--database", server.database])
        #expect(killed.standardOutput.contains("State: running\nAttempts: 1\n"), "\(killed.standardOutput)")
        #expect(try Self.runsAndEffects(of: id, in: server.database) == [1, 1], "the effect happened, the job is not done")

        let restarted = try ServerProcess(directory: server.directory, arguments: Self.arguments)
        // Answers once the job is done: its lease expired, and its second attempt completed.
        #expect(try restarted.get("/_test/jobs/\(id)").text == "done 2 2 1", "state, attempts, runs, effects")
        #expect(restarted.stop() == 0)
        let shown = try HearthCommand.run(["jobs", "show", id, "--database", server.database])
        #expect(shown.standardOutput.contains("State: done\nAttempts: 2\n"), "\(shown.standardOutput)")
        #expect(!shown.standardOutput.contains("Last error"), "done clears the error of the lost attempt")
    }

    @Test func aDeadJobIsListedShownAndRevivedWithHearthJobs() throws {
        let arguments = Self.arguments + ["--job-max-attempts", "1"]
        let server = try ServerProcess(arguments)
        defer { server.remove() }
        let id = try server.post("/_test/jobs", "fail").text
        #expect(try server.get("/_test/jobs/\(id)").text == "dead 1 1 1")
        let metrics = try server.get("/metrics")
        #expect(metrics.metric("hearth_jobs_dead{kind=\"test.effect\"}") == 1)
        #expect(metrics.metric("hearth_job_attempts_total{kind=\"test.effect\",outcome=\"dead\"}") == 1)
        #expect(metrics.metric("hearth_jobs_due{kind=\"mail.deliver\"}") == 0)
        #expect(metrics.metric("hearth_jobs_running{kind=\"retention.prune\"}") == 0)
        #expect(metrics.metric("hearth_jobs_lag_seconds{kind=\"test.effect\"}") == 0)
        #expect(server.stop() == 0)

        let database = ["--database", server.database]
        let dead = try HearthCommand.run(["jobs", "list", "--state", "dead"] + database)
        #expect(dead.status == 0)
        let lines = dead.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].hasPrefix("\(id) ") && lines[1].hasSuffix("test.effect / test job failed as asked"))
        let pending = try HearthCommand.run(["jobs", "list", "--state", "pending", "--kind", "retention.prune"] + database)
        #expect(pending.standardOutput.split(separator: "\n").count == 2, "retention's next run is scheduled")
        let shown = try HearthCommand.run(["jobs", "show", id] + database)
        #expect(shown.standardOutput.contains("Kind: test.effect\nState: dead\nAttempts: 1\n"))
        #expect(shown.standardOutput.contains("Last error: test job failed as asked\nPayload: \"fail\"\n"))

        let retried = try HearthCommand.run(["jobs", "retry", id] + database)
        #expect(retried.status == 0 && retried.standardOutput.hasPrefix("job \(id) is pending again, due "))
        #expect(try HearthCommand.run(["jobs", "show", id] + database).standardOutput.contains("State: pending\nAttempts: 0\n"))
        let restarted = try ServerProcess(directory: server.directory, arguments: arguments)
        #expect(try restarted.get("/_test/jobs/\(id)").text == "dead 1 2 1", "it ran again (a second run), and failed again")
        #expect(restarted.stop() == 0)

        let refused = try HearthCommand.run(["jobs", "retry", "99999"] + database)
        #expect(refused.status == 1 && refused.standardError.contains("no job 99999"))
        #expect(try HearthCommand.run(["jobs", "list", "--state", "lost"] + database).status == 64)
        #expect(try HearthCommand.run(["jobs", "rerun", id] + database).status == 64)
    }

    @Test func horizonsThatContradictEachOtherStopTheStart() throws {
        let failed = #expect(throws: ServerProcess.Failure.self) {
            try ServerProcess(["--retain-change-log", "60d", "--retain-mutation-replays", "7d"])
        }
        #expect(failed?.description.contains("--retain-mutation-replays must not be shorter than --retain-change-log") == true)
    }

    /// How often test job `id` ran and how often its effect happened, read from the database
    /// `--database` named.
    private static func runsAndEffects(of id: String, in location: String) throws -> [Int] {
        try TemporaryDatabase.withExisting(location) { store in
            try store.read { database in
            guard let row = try database.queryOne("SELECT runs, effects FROM test_job_runs WHERE job_id = ?", [Int64(id)]) else { return [] }
                return [try row["runs"], try row["effects"]]
            }
        }
    }
}
