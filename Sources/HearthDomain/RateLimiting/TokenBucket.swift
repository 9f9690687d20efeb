/// A token bucket: holds up to `capacity` tokens, refills continuously at `refillPerSecond`,
/// and each counted event spends one token. Empty means "wait": the bucket says how long
/// until the next token, and never locks anyone out for longer than that.
///
/// A state machine with the clock passed in (monotonic seconds), tested without waiting.
public struct TokenBucket: Sendable, Hashable {
    /// How a bucket fills: its size and rate.
    public struct Rule: Sendable, Hashable {
        /// The burst: tokens a full bucket holds.
        public var capacity: Double
        /// Tokens added per second.
        public var refillPerSecond: Double

        /// Creates a rule.
        public init(capacity: Double, refillPerSecond: Double) {
            precondition(capacity >= 1 && refillPerSecond > 0, "a token bucket needs a capacity of at least 1 and a positive rate")
            self.capacity = capacity
            self.refillPerSecond = refillPerSecond
        }

        /// At most `count` events per `seconds` on average, with bursts of `burst`.
        public static func perInterval(_ count: Double, seconds: Double, burst: Double) -> Rule {
            Rule(capacity: burst, refillPerSecond: count / seconds)
        }
    }

    /// The rule this bucket follows.
    public let rule: Rule
    private var tokens: Double
    private var updatedAt: Double

    /// A full bucket at time `now`.
    public init(rule: Rule, now: Double) {
        self.rule = rule
        tokens = rule.capacity
        updatedAt = now
    }

    /// Seconds until a token is available at `now`; 0 when one is.
    public func waitTime(now: Double) -> Double {
        let available = level(now: now)
        return available >= 1 ? 0 : (1 - available) / rule.refillPerSecond
    }

    /// Spends one token if one is available at `now`; returns whether it did.
    public mutating func take(now: Double) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Gives back a token taken for an attempt that turned out not to count (a login that
    /// succeeded), up to the capacity.
    public mutating func refund(now: Double) {
        refill(now: now)
        tokens = min(rule.capacity, tokens + 1)
    }

    /// Whether the bucket is full at `now`: a full bucket carries no information and can be
    /// forgotten by whoever stores many of them.
    public func isFull(now: Double) -> Bool {
        now >= refilledAt
    }

    /// When the bucket is (or was) full again if nothing is taken meanwhile. Buckets of one
    /// rule that are full sooner hold more tokens at any moment, so this orders them by how
    /// little they remember, independently of the time of asking.
    public var refilledAt: Double {
        updatedAt + (rule.capacity - tokens) / rule.refillPerSecond
    }

    private func level(now: Double) -> Double {
        min(rule.capacity, tokens + max(0, now - updatedAt) * rule.refillPerSecond)
    }

    private mutating func refill(now: Double) {
        tokens = level(now: now)
        updatedAt = max(updatedAt, now)
    }
}
