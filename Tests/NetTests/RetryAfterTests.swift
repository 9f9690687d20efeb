import FoundationEssentials
import Net
import Testing

/// `Retry-After` (RFC 9110 §10.2.3) as ``HTTPResponse/retryAfter(at:)`` reads it.
struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    private func retryAfter(_ value: String?) -> Duration? {
        HTTPResponse(status: 429, headers: value.map { [("retry-after", $0)] } ?? [], body: []).retryAfter(at: now)
    }

    @Test func delaySecondsAndDatesAreRead() {
        #expect(retryAfter("120") == .seconds(120))
        #expect(retryAfter(" 0 ") == .zero)
        #expect(retryAfter("Sun, 06 Nov 1994 08:51:37 GMT") == .seconds(120), "a date two minutes ahead")
        #expect(retryAfter("Tue, 01 Mar 2000 00:00:00 GMT") == .seconds(951_868_800 - 784_111_777), "a leap year's March")
        #expect(retryAfter("Sun, 06 Nov 1994 08:00:00 GMT") == .zero, "a date past waits no longer")
    }

    @Test func anythingElseIsNoRetryAfter() {
        for value in [nil, "", "soon", "-5", "1.5", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT"] {
            #expect(retryAfter(value) == nil, "\(value ?? "nil")")
        }
    }
}
