/// Token buckets by key (an account, a client address), for one kind of event.
///
/// Memory is bounded by ``maximumKeys`` buckets, and no bucket that still carries state is
/// ever forgotten to make room: a flood of distinct keys must not reset anyone's count.
/// - A bucket is forgotten only once it has refilled completely (a full bucket is what a new
///   key would get anyway), earliest-refilled first, when a new key needs its place.
/// - When every tracked bucket is still refilling, a new key is charged to one overflow
///   bucket (same rule) shared by all such keys. So while a flood keeps the table full, new
///   keys are throttled together (the limiter fails closed for them) and tracked keys, the
///   throttled ones above all, keep their own buckets. As the flood's buckets refill they make
///   room again.
public struct RateLimiter: Sendable {
    /// The rule every bucket follows.
    public let rule: TokenBucket.Rule
    /// The most keys kept at once.
    public let maximumKeys: Int
    private var buckets: [String: TokenBucket] = [:]
    /// Every tracked bucket's current refill time, plus stale entries of earlier states.
    private var refills = RefillQueue()
    /// Shared by the keys that found no room; created on first use.
    private var overflow: TokenBucket?

    /// Creates a limiter.
    public init(rule: TokenBucket.Rule, maximumKeys: Int = 100_000) {
        precondition(maximumKeys >= 1, "a rate limiter keeps at least one key")
        self.rule = rule
        self.maximumKeys = maximumKeys
    }

    /// Seconds `key` must wait before its next event at `now`; 0 when it may act. Mutating
    /// because answering for a new key may forget refilled buckets to make room for it, which
    /// keeps the answer consistent with ``take(for:now:)``.
    public mutating func waitTime(for key: String, now: Double) -> Double {
        if let bucket = buckets[key] { return bucket.waitTime(now: now) }
        return makeRoom(now: now) ? 0 : overflow?.waitTime(now: now) ?? 0
    }

    /// Takes a token for `key`; returns `false` (taking nothing) when its bucket is empty.
    public mutating func take(for key: String, now: Double) -> Bool {
        if buckets[key] == nil && !makeRoom(now: now) {
            var shared = overflow ?? TokenBucket(rule: rule, now: now)
            defer { overflow = shared }
            return shared.take(now: now)
        }
        var bucket = buckets[key] ?? TokenBucket(rule: rule, now: now)
        let taken = bucket.take(now: now)
        store(bucket, for: key)
        return taken
    }

    /// Returns a token to `key` (see ``TokenBucket/refund(now:)``); a key without a bucket of
    /// its own returns it to the overflow bucket it was charged to.
    public mutating func refund(for key: String, now: Double) {
        guard var bucket = buckets[key] else {
            overflow?.refund(now: now)
            return
        }
        bucket.refund(now: now)
        if bucket.isFull(now: now) { buckets[key] = nil } else { store(bucket, for: key) }
    }

    /// Forgets `key`'s history (after a password reset, the account starts afresh).
    public mutating func reset(_ key: String) {
        buckets[key] = nil
    }

    /// How many keys are tracked.
    public var trackedKeyCount: Int { buckets.count }

    /// Entries in the refill queue, stale ones included (bounded by about twice the tracked keys).
    var queuedEntryCount: Int { refills.count }

    private mutating func store(_ bucket: TokenBucket, for key: String) {
        buckets[key] = bucket
        refills.insert(key, refilledAt: bucket.refilledAt)
        // Each change leaves a stale entry behind; rebuild before they outnumber the live ones.
        if refills.count > 2 * buckets.count + 64 {
            refills = RefillQueue(buckets.map { ($0.key, $0.value.refilledAt) })
        }
    }

    /// Whether a new key fits, after forgetting the buckets that have refilled by `now`.
    private mutating func makeRoom(now: Double) -> Bool {
        while buckets.count >= maximumKeys, let first = refills.first, first.refilledAt <= now {
            refills.removeFirst()
            // A stale entry's bucket has changed since and has an entry of its own further on.
            if let bucket = buckets[first.key], bucket.isFull(now: now) { buckets[first.key] = nil }
        }
        return buckets.count < maximumKeys
    }
}
