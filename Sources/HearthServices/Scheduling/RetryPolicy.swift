import FoundationEssentials

/// How often and how soon a failed job is tried again: exponential backoff with jitter, and
/// a number of attempts after which the job is dead (dead-lettered, visible in `hearth jobs`).
public struct RetryPolicy: Sendable {
    /// Attempts before a job is dead; 8 by default.
    public var maxAttempts: Int
    /// The delay after the first failed attempt; 30 seconds by default. Each further failure
    /// doubles it.
    public var initialDelay: Duration
    /// The longest delay between attempts; 1 hour by default. With the defaults a job is
    /// retried for about 2 hours.
    public var maxDelay: Duration
    /// A random factor in `0.5...1` per retry that scales the delay, so jobs failing together
    /// (a mail server down) do not all retry together. Tests fix it.
    public var jitter: @Sendable () -> Double

    /// The defaults, or the given values.
    public init(
        maxAttempts: Int = 8, initialDelay: Duration = .seconds(30), maxDelay: Duration = .seconds(3600),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1) }
    ) {
        precondition(maxAttempts >= 1, "a job gets at least one attempt")
        precondition(initialDelay > .zero && maxDelay >= initialDelay, "retry delays are positive and the longest is not below the first")
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// When a job that failed its `attempts`-th attempt at `now` runs next, or nil when it is
    /// dead: a permanent failure, or the last attempt. Never sooner than the failure's
    /// ``JobFailure/retryAfter``.
    func retryDate(afterAttempt attempts: Int, failure: JobFailure, at now: Date) -> Date? {
        guard failure.code == .transient, attempts < maxAttempts else { return nil }
        return now.adding(max(delay(afterAttempt: attempts), failure.retryAfter ?? .zero))
    }

    /// The wait after `attempts` failed attempts: the initial delay doubled per further
    /// failure, capped, times the jitter factor.
    func delay(afterAttempt attempts: Int) -> Duration {
        let exponential = initialDelay * (1 << min(max(attempts - 1, 0), 30))
        return min(exponential, maxDelay) * jitter()
    }
}
