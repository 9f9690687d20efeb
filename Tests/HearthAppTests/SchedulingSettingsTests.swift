@testable import HearthApp
import HearthServices
import Testing

/// The scheduler's and retention's flags: documented defaults, environment variables, every
/// limit at its edge, and horizons that contradict each other refused with both flags named.
struct SchedulingSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let defaults = try settings([])
        #expect(defaults.scheduler.workers == 2 && defaults.scheduler.retry.maxAttempts == 8)
        #expect(defaults.scheduler.retry.initialDelay == .seconds(30) && defaults.scheduler.retry.maxDelay == .seconds(3600))
        #expect(defaults.scheduler.leaseDuration == .seconds(60) && defaults.scheduler.pollInterval == .seconds(60))
        #expect(defaults.scheduler.workerID.split(separator: "/").count == 3, "host/pid/start")
        let day = Duration.seconds(86_400)
        #expect(defaults.retention.horizons == [
            .changeLog: day * 30, .mail: day * 30, .sessions: day * 30, .emailTokens: day * 30, .invitations: day * 30,
            .mutationReplays: day * 30, .tombstones: day * 30, .analyticsEvents: day * 400, .jobs: day * 14, .notifications: day * 90,
        ])
        #expect(defaults.retention.interval == .seconds(3600) && defaults.retention.batchSize == 500)
    }

    @Test func everyOptionIsReadFromItsFlagOrItsEnvironmentVariable() throws {
        let flags = try settings([
            "--job-workers", "3", "--job-max-attempts", "4", "--job-retry-delay", "5s", "--job-max-retry-delay", "6m",
            "--job-lease", "7s", "--job-poll-interval", "8s", "--retain-change-log", "2d", "--retain-mutation-replays", "3d",
            "--retain-mail", "4h", "--retain-sessions", "5d", "--retain-email-tokens", "6d", "--retain-invitations", "7d",
            "--retain-analytics", "8d", "--retain-jobs", "9d", "--retention-interval", "10m", "--retention-batch-size", "11",
            "--retain-tombstones", "12d",
        ])
        #expect(flags.scheduler.workers == 3 && flags.scheduler.retry.maxAttempts == 4)
        #expect(flags.scheduler.retry.initialDelay == .seconds(5) && flags.scheduler.retry.maxDelay == .seconds(360))
        #expect(flags.scheduler.leaseDuration == .seconds(7) && flags.scheduler.pollInterval == .seconds(8))
        let days = [RetentionPolicy.Subject.changeLog: 2, .mutationReplays: 3, .sessions: 5, .emailTokens: 6, .invitations: 7,
                    .analyticsEvents: 8, .jobs: 9, .tombstones: 12]
        for (subject, count) in days { #expect(flags.retention[subject] == .seconds(count * 86_400), "\(subject)") }
        #expect(flags.retention[.mail] == .seconds(4 * 3600))
        #expect(flags.retention.interval == .seconds(600) && flags.retention.batchSize == 11)

        let environment = try settings([], environment: [
            "HEARTH_JOB_WORKERS": "5", "HEARTH_JOB_MAX_ATTEMPTS": "2", "HEARTH_RETAIN_CHANGE_LOG": "1d",
            "HEARTH_RETAIN_ANALYTICS": "90d", "HEARTH_RETENTION_BATCH_SIZE": "7",
        ])
        #expect(environment.scheduler.workers == 5 && environment.scheduler.retry.maxAttempts == 2)
        #expect(environment.retention[.changeLog] == .seconds(86_400) && environment.retention[.analyticsEvents] == .seconds(90 * 86_400))
        #expect(environment.retention.batchSize == 7)
    }

    @Test func everyLimitIsAcceptedAtItsEdgeAndRefusedOnePast() throws {
        let edges: [(flag: String, lowest: String, belowLowest: String, highest: String, aboveHighest: String)] = [
            ("--job-workers", "1", "0", "64", "65"),
            ("--job-max-attempts", "1", "0", "100", "101"),
            ("--job-lease", "1s", "999ms", "1d", "86401s"),
            ("--job-poll-interval", "1s", "999ms", "1d", "86401s"),
            ("--retention-interval", "1m", "59s", "7d", "604801s"),
            ("--retention-batch-size", "1", "0", "100000", "100001"),
            ("--retain-analytics", "1h", "3599s", "3660d", "3661d"),
            ("--retain-jobs", "1h", "3599s", "3660d", "3661d"),
        ]
        for edge in edges {
            _ = try settings([edge.flag, edge.lowest])
            _ = try settings([edge.flag, edge.highest])
            #expect(throws: UsageError.self, "\(edge.flag) \(edge.belowLowest)") { try settings([edge.flag, edge.belowLowest]) }
            #expect(throws: UsageError.self, "\(edge.flag) \(edge.aboveHighest)") { try settings([edge.flag, edge.aboveHighest]) }
        }
        _ = try settings(["--job-retry-delay", "1m", "--job-max-retry-delay", "1m"])
        let backwards = #expect(throws: UsageError.self) { try settings(["--job-retry-delay", "61s", "--job-max-retry-delay", "1m"]) }
        #expect(backwards?.message == "--job-max-retry-delay must not be below --job-retry-delay")
    }

    @Test func horizonsThatContradictEachOtherStopTheStartNamingBothFlagsAndWhy() throws {
        _ = try settings(["--retain-change-log", "60d", "--retain-mutation-replays", "60d", "--retain-tombstones", "60d"])
        let replays = #expect(throws: UsageError.self) {
            try settings(["--retain-change-log", "60d", "--retain-mutation-replays", "59d", "--retain-tombstones", "60d"])
        }
        let tombstones = #expect(throws: UsageError.self) {
            try settings(["--retain-change-log", "60d", "--retain-mutation-replays", "60d", "--retain-tombstones", "59d"])
        }
        #expect(tombstones?.message.hasPrefix("--retain-tombstones must not be shorter than --retain-change-log: ") == true)
        #expect(replays?.message.hasPrefix("--retain-mutation-replays must not be shorter than --retain-change-log: ") == true)
        #expect(replays?.message.contains("clientMutationId") == true)
        let invitations = #expect(throws: UsageError.self) { try settings(["--retain-mail", "60d", "--retain-email-tokens", "60d"]) }
        #expect(invitations?.message.hasPrefix("--retain-invitations must not be shorter than --retain-mail: ") == true)
        let tokens = #expect(throws: UsageError.self) { try settings(["--retain-mail", "60d", "--retain-invitations", "60d"]) }
        #expect(tokens?.message.hasPrefix("--retain-email-tokens must not be shorter than --retain-mail: ") == true)
    }
}
