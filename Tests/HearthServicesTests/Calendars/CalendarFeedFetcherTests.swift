import Net
@testable import HearthServices
import Testing

/// The pure parts of calendar feeds: where a redirect's `Location` leads, and how refreshes of a
/// failing feed back off up to `--calendar-feed-max-retry-delay`.
@Suite struct CalendarFeedFetcherTests {
    @Test(arguments: [
        ("https://other.example.org/b.ics", "https://other.example.org/b.ics"),
        ("webcal://other.example.org/b.ics", "https://other.example.org/b.ics"),
        ("//cdn.example.org/c.ics", "https://cdn.example.org/c.ics"),
        ("/top.ics?x=1", "https://cal.example.org:8443/top.ics?x=1"),
        ("next.ics", "https://cal.example.org:8443/feeds/ana/next.ics"),
        ("http://cal.example.org/plain.ics", "http://cal.example.org/plain.ics"),
    ])
    func redirectsResolveAgainstTheURLTheyAnswered(location: String, expected: String) throws {
        let base = try HTTPURL("https://cal.example.org:8443/feeds/ana/work.ics?token=s3cret")
        #expect(CalendarFeedFetcher.resolve(location, against: base)?.description == expected)
    }

    @Test func failingFeedsBackOffUpToTheLongestRetryDelay() {
        let configuration = CalendarFeedConfiguration(refreshInterval: .seconds(3600), maximumRetryDelay: .seconds(4 * 3600))
        #expect(configuration.delay(afterFailures: 0) == .seconds(3600))
        #expect(configuration.delay(afterFailures: 1) == .seconds(3600))
        #expect(configuration.delay(afterFailures: 2) == .seconds(7200))
        #expect(configuration.delay(afterFailures: 3) == .seconds(4 * 3600), "the edge: exactly the longest delay")
        #expect(configuration.delay(afterFailures: 4) == .seconds(4 * 3600), "never longer")
        #expect(configuration.delay(afterFailures: 1000) == .seconds(4 * 3600))
        let shorter = CalendarFeedConfiguration(refreshInterval: .seconds(7200), maximumRetryDelay: .seconds(60))
        #expect(shorter.delay(afterFailures: 5) == .seconds(7200), "a failing feed is never refreshed more often than a working one")
    }

    @Test(arguments: [
        ("webcal://cal.example.org/a.ics", "https://cal.example.org/a.ics"), ("WEBCALS://cal.example.org/a.ics", "https://cal.example.org/a.ics"),
        ("  https://cal.example.org/a.ics ", "https://cal.example.org/a.ics"),
    ])
    func feedURLsAreReadAsHTTPS(text: String, expected: String) throws {
        #expect(try ImportedCalendarService.feedURL(text, maximumBytes: 2048).description == expected)
    }

    @Test(arguments: [
        ("", "REQUIRED"), ("http://cal.example.org/a.ics", "INVALID_FORMAT"), ("ftp://cal.example.org/a.ics", "INVALID_FORMAT"),
        ("https://ana:pw@cal.example.org/a.ics", "NOT_ALLOWED"), ("webcal://ana@cal.example.org/a.ics", "NOT_ALLOWED"),
        ("https://cal.example.org/" + String(repeating: "a", count: 2048 - 23), "TOO_LONG"),
    ])
    func feedURLsAreRefusedWithTheirReason(text: String, reason: String) {
        let refused = #expect(throws: (any Error).self) { _ = try ImportedCalendarService.feedURL(text, maximumBytes: 2048) }
        #expect((refused as? ServiceError)?.problems.first?.reason.rawValue == reason, "\(text.prefix(40))")
    }

    @Test func aFeedURLOfExactlyTheLongestLengthIsAccepted() throws {
        let url = "https://cal.example.org/" + String(repeating: "a", count: 2048 - 24)
        #expect(url.utf8.count == 2048)
        #expect(try ImportedCalendarService.feedURL(url, maximumBytes: 2048).description == url)
        let refused = #expect(throws: ServiceError.self) { _ = try ImportedCalendarService.feedURL(url + "a", maximumBytes: 2048) }
        #expect(refused?.problems.first?.reason == .tooLong && refused?.limit == 2048)
    }
}
