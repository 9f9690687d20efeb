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

    @Test func readsRFC3339InEveryFormItAllows() {
        func seconds(_ text: String) -> Int64? { WallClock.Instant(rfc3339: text)?.seconds }
        #expect(WallClock.Instant(rfc3339: "2026-11-18T11:06:40.007Z") == WallClock.Instant(seconds: 1_795_000_000, nanoseconds: 7_000_000))
        #expect(seconds("2026-11-18t11:06:40z") == 1_795_000_000)
        #expect(seconds("2026-11-18T12:36:40+01:30") == 1_795_000_000)
        #expect(seconds("2026-11-18T09:06:40-02:00") == 1_795_000_000)
        #expect(WallClock.Instant(rfc3339: "2026-11-18T11:06:40.1234567891Z")?.nanoseconds == 123_456_789, "digits past the ninth are dropped")
        #expect(seconds("2000-02-29T00:00:00Z") == 951_782_400)
        for instant in [WallClock.Instant(seconds: 0), WallClock.Instant(seconds: -62_167_219_200), WallClock.Instant(seconds: 253_402_300_799, nanoseconds: 10_000_000)] {
            #expect(WallClock.Instant(rfc3339: instant.iso8601) == instant)
        }
    }

    @Test(arguments: [
        "", "2026-11-18", "2026-11-18T11:06:40", "2026-11-18 11:06:40Z", "2026-11-18T11:06:40.Z", "2026-11-18T11:06:40ZZ",
        "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-11-18T24:00:00Z",
        "2026-11-18T11:60:00Z", "2026-11-18T11:06:60Z", "2026-11-18T11:06:40+24:00", "2026-11-18T11:06:40+01:60", "2026-11-18T11:06:40+0100",
        "2026-11-18T11:06:4aZ", "-026-11-18T11:06:40Z", "2026-11-18T11:06:40Zé",
    ])
    func refusesWhatRFC3339DoesNotAllow(_ text: String) {
        #expect(WallClock.Instant(rfc3339: text) == nil)
    }

    @Test func nowIsAfterTheTimeThisTestWasWritten() {
        #expect(WallClock.now().seconds > 1_795_000_000)
    }
}
