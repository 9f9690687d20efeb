import Support
import Testing

@Suite struct WallClockTests {
    @Test func formatsInstantsAsRFC3339UTCWithMilliseconds() {
        #expect(WallClock.Instant(seconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(WallClock.Instant(seconds: 1_795_000_000, nanoseconds: 7_900_000).iso8601 == "2026-11-18T11:06:40.007Z")
        #expect(WallClock.Instant(seconds: 951_782_400).iso8601 == "2000-02-29T00:00:00.000Z")
        #expect(WallClock.Instant(seconds: 1_798_761_599, nanoseconds: 999_999_999).iso8601 == "2026-12-31T23:59:59.999Z")
        #expect(WallClock.Instant(seconds: -62_167_219_200).iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(WallClock.Instant(seconds: 253_402_300_799, nanoseconds: 10_000_000).iso8601 == "9999-12-31T23:59:59.010Z")
        #expect(WallClock.Instant(seconds: 253_402_300_800).iso8601 == "10000-01-01T00:00:00.000Z", "a fifth digit when the year needs it")
    }

    @Test func nowIsAfterTheTimeThisTestWasWritten() {
        #expect(WallClock.now().seconds > 1_795_000_000)
    }
}
