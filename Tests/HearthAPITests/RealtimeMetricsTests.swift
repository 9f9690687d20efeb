@testable import HearthAPI
import Testing

/// Waiting for a number of live subscriptions (what the `/_test/subscriptions/:count` route serves).
struct RealtimeMetricsTests {
    @Test func aWaiterIsReleasedWhenTheCountIsReachedAndAtOnceWhenItAlreadyIs() async {
        let metrics = RealtimeMetrics()
        #expect(await metrics.waitForActiveSubscriptions(0, timeout: .seconds(60)) == 0)
        async let reached = metrics.waitForActiveSubscriptions(2, timeout: .seconds(60))
        metrics.subscriptionStarted()
        metrics.subscriptionStarted()
        #expect(await reached == 2)
        async let ended = metrics.waitForActiveSubscriptions(1, timeout: .seconds(60))
        metrics.subscriptionEnded()
        #expect(await ended == 1)
    }

    @Test func aWaiterWhoseCountIsNeverReachedGetsTheCountAtItsTimeout() async {
        let metrics = RealtimeMetrics()
        metrics.subscriptionStarted()
        #expect(await metrics.waitForActiveSubscriptions(5, timeout: .milliseconds(20)) == 1)
    }
}
