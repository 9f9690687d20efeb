import FoundationEssentials
@testable import HearthServices
import JOSE
import Net
import Testing

/// A push service's `Retry-After` as delivery honours it: the wait it asks for, cut to
/// `--push-max-retry-after`.
struct PushRetryAfterCapTests {
    private let now = Date(timeIntervalSince1970: 1_796_000_000)

    private func honoured(_ value: String, cap: Duration) -> Duration? {
        let configuration = PushConfiguration(
            vapid: VAPIDAuthorization(key: .generate(.ES256), subject: "mailto:ops@example.org"), maximumRetryAfter: cap)
        return configuration.honouredRetryAfter(of: HTTPResponse(status: 503, headers: [("Retry-After", value)], body: []), at: now)
    }

    @Test func retryAfterIsHonouredUpToTheCap() {
        #expect(honoured("90", cap: .seconds(90)) == .seconds(90), "at the cap: whole")
        #expect(honoured("91", cap: .seconds(90)) == .seconds(90), "beyond: cut")
        #expect(honoured("Mon, 30 Nov 2026 00:55:20 GMT", cap: .seconds(3600)) == .seconds(120), "a date two minutes ahead")
        #expect(honoured("Mon, 30 Nov 2026 02:53:20 GMT", cap: .seconds(3600)) == .seconds(3600), "a date two hours ahead: cut")
        #expect(honoured("soon", cap: .seconds(90)) == nil)
    }
}
