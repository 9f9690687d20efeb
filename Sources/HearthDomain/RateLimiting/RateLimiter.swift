/// Token buckets by key (an account, a client address), for one kind of event.
///
/// Full buckets are forgotten, so memory grows only with keys that acted recently. A hard
/// cap on keys bounds memory under a flood of distinct keys: when it is reached and no
/// bucket is full, every bucket is dropped. That makes the limiter more lenient, never
/// stricter, and needs `maximumKeys` distinct keys inside one refill period to provoke.
public struct RateLimiter: Sendable {
    /// The rule every bucket follows.
    public let rule: TokenBucket.Rule
    /// The most keys kept at once.
    public let maximumKeys: Int
    private var buckets: [String: TokenBucket] = [:]

    /// Creates a limiter.
    public init(rule: TokenBucket.Rule, maximumKeys: Int = 100_000) {
        self.rule = rule
        self.maximumKeys = maximumKeys
    }

    /// Seconds `key` must wait before its next event at `now`; 0 when it may act.
    public func waitTime(for key: String, now: Double) -> Double {
        buckets[key]?.waitTime(now: now) ?? 0
    }

    /// Takes a token for `key`; returns `false` (taking nothing) when its bucket is empty.
    public mutating func take(for key: String, now: Double) -> Bool {
        if buckets[key] == nil {
            if buckets.count >= maximumKeys { forgetFullBuckets(now: now) }
            if buckets.count >= maximumKeys { buckets.removeAll(keepingCapacity: true) }
        }
        var bucket = buckets[key] ?? TokenBucket(rule: rule, now: now)
        let taken = bucket.take(now: now)
        buckets[key] = bucket
        return taken
    }

    /// Returns a token to `key` (see ``TokenBucket/refund(now:)``).
    public mutating func refund(for key: String, now: Double) {
        guard var bucket = buckets[key] else { return }
        bucket.refund(now: now)
        buckets[key] = bucket.isFull(now: now) ? nil : bucket
    }

    /// Forgets `key`'s history (after a password reset, the account starts afresh).
    public mutating func reset(_ key: String) {
        buckets[key] = nil
    }

    /// How many keys are tracked.
    public var trackedKeyCount: Int { buckets.count }

    private mutating func forgetFullBuckets(now: Double) {
        buckets = buckets.filter { !$0.value.isFull(now: now) }
    }
}
