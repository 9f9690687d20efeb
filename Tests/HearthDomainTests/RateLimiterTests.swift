import HearthDomain
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
        #expect(limiter.waitTime(for: "a", now: 0.25) == 0.75)
        #expect(limiter.waitTime(for: "c", now: 0) == 0)
    }

    @Test func forgetsBucketsThatRefilledOrWereReset() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 1, refillPerSecond: 1))
        _ = limiter.take(for: "a", now: 0)
        limiter.refund(for: "a", now: 0)
        #expect(limiter.trackedKeyCount == 0)
        _ = limiter.take(for: "b", now: 0)
        limiter.reset("b")
        #expect(limiter.waitTime(for: "b", now: 0) == 0)
    }

    @Test func boundsTheNumberOfKeys() {
        var limiter = RateLimiter(rule: TokenBucket.Rule(capacity: 1, refillPerSecond: 0.001), maximumKeys: 10)
        for key in 0..<25 { _ = limiter.take(for: "k\(key)", now: 0) }
        #expect(limiter.trackedKeyCount <= 10)
    }
}
