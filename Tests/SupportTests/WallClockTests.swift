import Support
import Testing

@Suite struct WallClockTests {
    @Test func formatsInstantsAsRFC3339UTCWithMilliseconds() {
        #expect(WallClock.Instant(seconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(WallClock.Instant(seconds: 1_795_000_000, nanoseconds: 7_900_000).iso8601 == "2026-11-18T11:06:40.007Z")
        #expect(WallClock.Instant(seconds: 951_782_400).iso8601 == "2000-02-29T00:00:00.000Z")
    }

    @Test func nowIsAfterTheTimeThisTestWasWritten() {
        #expect(WallClock.now().seconds > 1_795_000_000)
    }
}
