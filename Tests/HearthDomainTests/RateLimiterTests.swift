@testable import HearthDomain
import Testing

struct TokenBucketTests {
    let rule = TokenBucket.Rule(capacity: 3, refillPerSecond: 0.5)

    @Test func allowsABurstThenMakesTheCallerWait() {
        var bucket = TokenBucket(rule: rule, now: 0)
        let burst = (0..<4).map { _ in bucket.take(now: 0) }
        #expect(burst == [true, true, true, false])
        #expect(bucket.waitTime(now: 0) == 2)
        #expect(bucket.waitTime(now: 1.5) == 0.5)
        let afterWaiting = bucket.take(now: 2)
        #expect(afterWaiting)
    }

    @Test func neverHoldsMoreThanItsCapacity() {
        var bucket = TokenBucket(rule: rule, now: 0)
        let takes = (0..<4).map { _ in bucket.take(now: 1000) }
        #expect(takes == [true, true, true, false])
    }

    @Test func refundsUpToTheCapacity() {
        var bucket = TokenBucket(rule: rule, now: 0)
        _ = bucket.take(now: 0)
        bucket.refund(now: 0)
        bucket.refund(now: 0)
        #expect(bucket.isFull(now: 0))
    }

    @Test func perIntervalSpreadsTheCountOverTheInterval() {
        let hourly = TokenBucket.Rule.perInterval(90, seconds: 3600, burst: 10)
        #expect(hourly.refillPerSecond == 90.0 / 3600)
        var bucket = TokenBucket(rule: hourly, now: 0)
        var allowed = 0
        for second in stride(from: 0.0, to: 3600, by: 1) where bucket.take(now: second) { allowed += 1 }
        #expect(allowed <= 100)
        #expect(allowed >= 99)
    }
}

struct RateLimiterTests {
    @Test func keepsOneBucketPerKey() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 1, refillPerSecond: 1))
        let takes = [limiter.take(for: "a", now: 0), limiter.take(for: "a", now: 0), limiter.take(for: "b", now: 0)]
        #expect(takes == [true, false, true])
        let waits = [limiter.waitTime(for: "a", now: 0.25), limiter.waitTime(for: "c", now: 0)]
        #expect(waits == [0.75, 0])
    }

    @Test func forgetsBucketsThatRefilledOrWereReset() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 1, refillPerSecond: 1))
        _ = limiter.take(for: "a", now: 0)
        limiter.refund(for: "a", now: 0)
        #expect(limiter.trackedKeyCount == 0)
        _ = limiter.take(for: "b", now: 0)
        limiter.reset("b")
        let wait = limiter.waitTime(for: "b", now: 0)
        #expect(wait == 0)
    }

    @Test func boundsTheNumberOfKeys() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 1, refillPerSecond: 0.001), maximumKeys: 10)
        for key in 0..<25 { _ = limiter.take(for: "k\(key)", now: 0) }
        #expect(limiter.trackedKeyCount <= 10)
    }

    @Test func aThrottledKeyStaysThrottledThroughAFloodOfDistinctKeys() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 2, refillPerSecond: 0.01), maximumKeys: 100)
        let before = [limiter.take(for: "victim", now: 0), limiter.take(for: "victim", now: 0), limiter.take(for: "victim", now: 0)]
        #expect(before == [true, true, false])
        for key in 0..<10_000 { _ = limiter.take(for: "flood-\(key)", now: 1) }
        #expect(limiter.trackedKeyCount == 100)
        let wait = limiter.waitTime(for: "victim", now: 1)
        let after = limiter.take(for: "victim", now: 1)
        #expect(wait > 0)
        #expect(!after)
    }

    @Test func newKeysShareTheOverflowBucketWhileEveryTrackedBucketIsRefilling() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 2, refillPerSecond: 0.01), maximumKeys: 3)
        let tracked = ["a", "b", "c"].map { limiter.take(for: $0, now: 0) }
        #expect(tracked == [true, true, true])
        // At the limit: the next new keys are charged to one shared bucket of the same rule.
        let waitBefore = limiter.waitTime(for: "d", now: 0)
        let overflow = ["d", "e", "f"].map { limiter.take(for: $0, now: 0) }
        let waitAfter = limiter.waitTime(for: "g", now: 0)
        #expect(waitBefore == 0)
        #expect(overflow == [true, true, false])
        #expect(waitAfter > 0)
        #expect(limiter.trackedKeyCount == 3)
        // Tracked keys keep their own buckets meanwhile.
        let own = limiter.take(for: "a", now: 0)
        #expect(own)
    }

    @Test func aBucketThatRefilledMakesRoomForANewKey() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 2, refillPerSecond: 1), maximumKeys: 3)
        let setUp = [limiter.take(for: "a", now: 0), limiter.take(for: "b", now: 0.5), limiter.take(for: "b", now: 0.5),
                     limiter.take(for: "c", now: 0.5)]
        #expect(setUp == [true, true, true, true])
        // At 1.0 only "a" has refilled: "d" takes its place with a bucket of its own; "b" and "c" are kept.
        let newcomer = (0..<3).map { _ in limiter.take(for: "d", now: 1.0) }
        #expect(newcomer == [true, true, false])
        #expect(limiter.trackedKeyCount == 3)
        let waitOfB = limiter.waitTime(for: "b", now: 1.0)
        #expect(waitOfB == 0.5)
        // No bucket is full now, so the next new keys go to the overflow bucket.
        let later = ["e", "f", "g"].map { limiter.take(for: $0, now: 1.0) }
        #expect(later == [true, true, false])
    }

    @Test func aRefundThatFillsABucketForgetsIt() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 2, refillPerSecond: 0.01), maximumKeys: 2)
        _ = limiter.take(for: "a", now: 0)
        _ = limiter.take(for: "b", now: 0)
        limiter.refund(for: "a", now: 0)
        #expect(limiter.trackedKeyCount == 1)
        let own = (0..<3).map { _ in limiter.take(for: "c", now: 0) }
        #expect(own == [true, true, false])
        #expect(limiter.trackedKeyCount == 2)
    }

    @Test func staleQueueEntriesAreRebuiltAway() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 1_000_000, refillPerSecond: 0.001), maximumKeys: 4)
        for round in 0..<10_000 { _ = limiter.take(for: "k\(round % 4)", now: 0) }
        #expect(limiter.trackedKeyCount == 4)
        #expect(limiter.queuedEntryCount <= 2 * 4 + 64)
    }
}
