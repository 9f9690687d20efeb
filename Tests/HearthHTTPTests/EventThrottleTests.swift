@testable import HearthHTTP
import Testing

struct EventThrottleTests {
    let second: UInt64 = 1_000_000_000

    @Test func reportsTheFirstOccurrenceAndHoldsBackTheRestOfTheInterval() {
        var throttle = EventThrottle(interval: 10 * second)
        #expect(throttle.record(now: 100 * second) == 0)
        let burst = (1...5_000).map { throttle.record(now: 100 * second + UInt64($0) * 1_000_000) }
        #expect(burst.allSatisfy { $0 == nil })
    }

    @Test func theFirstOccurrenceAfterTheIntervalCarriesTheCountHeldBack() {
        var throttle = EventThrottle(interval: 10 * second)
        #expect(throttle.record(now: 0) == 0)
        #expect(throttle.record(now: 1) == nil)
        #expect(throttle.record(now: 10 * second - 1) == nil)
        #expect(throttle.record(now: 10 * second) == 2)
        #expect(throttle.record(now: 10 * second + 1) == nil)
        #expect(throttle.record(now: 30 * second) == 1)
        #expect(throttle.record(now: 40 * second) == 0)
    }

    @Test func flushReportsWhatWasHeldBackOnceTheIntervalIsOver() {
        var throttle = EventThrottle(interval: 10 * second)
        #expect(throttle.flush(now: 0) == nil)
        #expect(throttle.record(now: 0) == 0)
        #expect(throttle.flush(now: 5 * second) == nil)
        #expect(throttle.record(now: 5 * second) == nil)
        #expect(throttle.record(now: 6 * second) == nil)
        #expect(throttle.flush(now: 10 * second - 1) == nil)
        #expect(throttle.flush(now: 10 * second) == 2)
        #expect(throttle.flush(now: 30 * second) == nil)
        // The flush opened a new quiet period.
        #expect(throttle.record(now: 15 * second) == nil)
        #expect(throttle.record(now: 20 * second) == 1)
    }
}
