import HearthServices

/// The options of retention (`hearth serve`): a horizon per kind of log-like data, how often
/// the retention job runs, and how much one of its transactions deletes.
enum RetentionSettings {
    /// The flag of each subject's horizon.
    static let flags: [RetentionPolicy.Subject: String] = [
        .changeLog: "--retain-change-log", .mail: "--retain-mail", .sessions: "--retain-sessions",
        .emailTokens: "--retain-email-tokens", .invitations: "--retain-invitations",
        .mutationReplays: "--retain-mutation-replays", .tombstones: "--retain-tombstones", .analyticsEvents: "--retain-analytics", .jobs: "--retain-jobs",
        .notifications: "--retain-notifications",
    ]

    /// What each horizon's help says is kept.
    private static let kept: [RetentionPolicy.Subject: String] = [
        .changeLog: "Changes kept in the change log; a client resuming from an older cursor gets CURSOR_EXPIRED.",
        .mail: "Sent and failed mail kept in the outbox, after it was enqueued.",
        .sessions: "Ended sessions (signed out, revoked, expired) kept, with their spent refresh tokens, after they ended.",
        .emailTokens: "Used or expired email tokens kept, after use or expiry (and while mail refers to them).",
        .invitations: "Expired invitations kept, with their invited member, after expiry (and while mail refers to them).",
        .mutationReplays: "clientMutationIds remembered for replays; at least --retain-change-log.",
        .tombstones: "Tombstones of deleted objects (and the client-made ids of those objects), after deletion; at least --retain-change-log.",
        .analyticsEvents: "Activation analytics events kept.",
        .jobs: "Finished (done or dead) jobs kept for 'hearth jobs', after they finished.",
        .notifications: "Notifications (reminders and other notices) kept, after they were made.",
    ]

    /// The options that set ``RetentionPolicy``.
    static let options: [OptionSpec] = RetentionPolicy.Subject.allCases.map { subject in
        let flag = flags[subject]!
        let environment = "HEARTH_" + flag.dropFirst(2).uppercased().replacing("-", with: "_")
        return .value(flag, "DURATION", environment: environment, default: "\(RetentionPolicy.defaultHorizons[subject]!.components.seconds / 86_400)d",
                      help: kept[subject]!)
    } + [
        .value("--retention-interval", "DURATION", environment: "HEARTH_RETENTION_INTERVAL", default: "1h",
               help: "Time between runs of the retention job, which deletes what is past its horizon."),
        .value("--retention-batch-size", "N", environment: "HEARTH_RETENTION_BATCH_SIZE", default: "500",
               help: "Rows the retention job deletes per transaction, so a run never holds the database's writer for long."),
    ]

    /// The policy the options give.
    /// - Throws: `UsageError` for a value out of range, or horizons that break one of
    ///   ``RetentionPolicy/relations`` (naming both flags and why).
    static func policy(_ options: ParsedOptions) throws -> RetentionPolicy {
        var policy = RetentionPolicy(
            interval: try options.duration("--retention-interval", in: .seconds(60)...(.seconds(7 * 86_400))) ?? .seconds(3600),
            batchSize: try options.integer("--retention-batch-size", in: 1...100_000) ?? 500)
        for subject in RetentionPolicy.Subject.allCases {
            if let horizon = try options.duration(flags[subject]!, in: .seconds(3600)...(.seconds(10 * 366 * 86_400))) {
                policy[subject] = horizon
            }
        }
        if let broken = policy.violations().first {
            throw UsageError(message: "\(flags[broken.longer]!) must not be shorter than \(flags[broken.shorter]!): \(broken.reason)")
        }
        return policy
    }
}
