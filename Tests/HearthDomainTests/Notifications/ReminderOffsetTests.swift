import FoundationEssentials
import HearthDomain
import Testing

/// Reminder offsets as ISO 8601 durations, and quiet hours in a time zone (FR-49, FR-50).
@Suite struct ReminderOffsetTests {
    @Test(arguments: [
        ("PT30M", 1800, "PT30M"), ("P1D", 86_400, "P1D"), ("P1DT12H", 129_600, "P1DT12H"), ("P2W", 1_209_600, "P14D"),
        ("PT0S", 0, "PT0S"), ("PT90M", 5400, "PT1H30M"), ("PT120S", 120, "PT2M"),
    ])
    func durationsParseAndPrintCanonically(text: String, seconds: Int, canonical: String) throws {
        let offset = try #require(ReminderOffset(iso8601: text))
        #expect(offset.seconds == seconds && offset.iso8601 == canonical)
        #expect(ReminderOffset(iso8601: canonical) == offset)
    }

    @Test(arguments: ["", "P", "PT", "P1M", "P1Y", "PT30", "30M", "PT1.5H", "PT30S", "P1H", "PT1D", "-PT1M", "P1DT", "PT1234567M"])
    func otherTextIsRefused(text: String) {
        #expect(ReminderOffset(iso8601: text) == nil)
    }

    @Test func offsetsAreStoredAscendingAndSpoken() {
        let offsets = [ReminderOffset(seconds: 86_400), ReminderOffset(seconds: 0), ReminderOffset(seconds: 1800)]
        #expect(ReminderOffset.stored(offsets) == "0,1800,86400")
        #expect(ReminderOffset.offsets(stored: "0,1800,86400") == offsets.sorted())
        #expect(ReminderOffset.offsets(stored: "").isEmpty)
        #expect(ReminderOffset(seconds: 93_600 + 60).spoken == "1 day 2 hours 1 minute")
    }

    @Test func quietHoursEndWhereTheyEndInTheZoneAlsoOverMidnight() throws {
        let paris = try #require(TimeZoneRules.named("Europe/Paris"))
        let night = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60)
        // 2026-01-15 22:30 in Paris (UTC+1) is 21:30Z: quiet until 07:00 Paris, 06:00Z the next day.
        let lateEvening = Date(timeIntervalSince1970: 1_768_512_600)
        #expect(night.end(ofSpanContaining: lateEvening, in: paris) == Date(timeIntervalSince1970: 1_768_543_200))
        // 06:59 Paris is still quiet; 07:00 is not; noon is not.
        #expect(night.end(ofSpanContaining: Date(timeIntervalSince1970: 1_768_543_140), in: paris) == Date(timeIntervalSince1970: 1_768_543_200))
        #expect(night.end(ofSpanContaining: Date(timeIntervalSince1970: 1_768_543_200), in: paris) == nil)
        #expect(night.end(ofSpanContaining: Date(timeIntervalSince1970: 1_768_561_200), in: paris) == nil)
        #expect(QuietHours(startMinute: 600, endMinute: 600).end(ofSpanContaining: lateEvening, in: paris) == nil, "no quiet time")
    }

    @Test func localTimesReadAndWrite() {
        #expect(QuietHours.minute(localTime: "07:05") == 425 && QuietHours.localTime(425) == "07:05")
        for text in ["7:05", "24:00", "12:60", "+1:00", "1205", ""] { #expect(QuietHours.minute(localTime: text) == nil, "\(text)") }
    }
}
