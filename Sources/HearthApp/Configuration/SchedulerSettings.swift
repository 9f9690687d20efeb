import FoundationEssentials
import Glibc
import HearthServices
import Support

/// The options of the job scheduler (`hearth serve`): how many jobs run at once, how failures
/// are retried and dead-lettered, how long leases last.
enum SchedulerSettings {
    /// The options that set ``JobScheduler/Configuration``.
    static let options: [OptionSpec] = [
        .value("--job-workers", "N", environment: "HEARTH_JOB_WORKERS", default: "2",
               help: "Background jobs (mail delivery, retention) run at once, each on a thread of its own."),
        .value("--job-max-attempts", "N", environment: "HEARTH_JOB_MAX_ATTEMPTS", default: "8",
               help: "Attempts before a failing job is given up (dead, kept for 'hearth jobs' and retried with 'hearth jobs retry')."),
        .value("--job-retry-delay", "DURATION", environment: "HEARTH_JOB_RETRY_DELAY", default: "30s",
               help: "Wait after a job's first failed attempt; doubled after each further one, with jitter (x0.5-1)."),
        .value("--job-max-retry-delay", "DURATION", environment: "HEARTH_JOB_MAX_RETRY_DELAY", default: "1h",
               help: "Longest wait between attempts of a failing job."),
        .value("--job-lease", "DURATION", environment: "HEARTH_JOB_LEASE", default: "60s",
               help: "How long a running job's lease lasts unless renewed (every third of it): a job whose worker died runs again after this."),
        .value("--job-poll-interval", "DURATION", environment: "HEARTH_JOB_POLL_INTERVAL", default: "60s",
               help: "Longest the scheduler sleeps without looking at the jobs table; only jobs written by another process (hearth jobs retry) wait for it."),
    ]

    /// The configuration the options give; the worker id names this host, this process and
    /// this start (a container's process id repeats).
    /// - Throws: `UsageError` for a value out of range, or a maximum retry delay below the first.
    static func configuration(_ options: ParsedOptions) throws -> JobScheduler.Configuration {
        let defaults = JobScheduler.Configuration()
        let day = Duration.seconds(86_400)
        let initialDelay = try options.duration("--job-retry-delay", in: .seconds(1)...day) ?? defaults.retry.initialDelay
        let maxDelay = try options.duration("--job-max-retry-delay", in: .seconds(1)...(day * 7)) ?? defaults.retry.maxDelay
        guard maxDelay >= initialDelay else {
            throw UsageError(message: "--job-max-retry-delay must not be below --job-retry-delay")
        }
        return JobScheduler.Configuration(
            workers: try options.integer("--job-workers", in: 1...64) ?? defaults.workers,
            retry: RetryPolicy(
                maxAttempts: try options.integer("--job-max-attempts", in: 1...100) ?? defaults.retry.maxAttempts,
                initialDelay: initialDelay, maxDelay: maxDelay),
            leaseDuration: try options.duration("--job-lease", in: .seconds(1)...day) ?? defaults.leaseDuration,
            pollInterval: try options.duration("--job-poll-interval", in: .seconds(1)...day) ?? defaults.pollInterval,
            workerID: "\(hostName())/\(getpid())/\(Base64URL.encode(SecureRandom.bytes(6)))")
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
