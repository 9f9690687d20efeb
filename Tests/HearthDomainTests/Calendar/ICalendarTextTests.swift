import Foundation
import HearthDomain
import Testing

/// RFC 5545's framing (§3.1, §3.3.11), availability timings across a daylight saving change, and
/// a zone's VTIMEZONE observances.
struct ICalendarTextTests {
    @Test func linesAreFoldedAt75OctetsWithoutSplittingACharacterAndEndInCRLF() {
        var text = ICalendarText()
        let value = String(repeating: "a", count: 70) + "ü🎹" + String(repeating: "b", count: 80)
        text.line("SUMMARY", value)
        let lines = text.text.components(separatedBy: "\r\n")
        #expect(lines.last == "")
        #expect(lines.dropLast().allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix(" ") })
        // Unfolding (dropping each CRLF and the space after it) gives the line back.
        #expect(text.text.replacingOccurrences(of: "\r\n ", with: "") == "SUMMARY:" + value + "\r\n")
    }

    @Test func textValuesEscapeBackslashesSemicolonsCommasAndLineBreaks() {
        #expect(ICalendarText.escaped("a\\b;c,d\ne") == "a\\\\b\\;c\\,d\\ne")
    }

    @Test func aWeeklyTimedEventKeepsItsWallClockTimeAcrossSpringForward() throws {
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        let start = Date(timeIntervalSince1970: 1_805_616_000)  // 2027-03-21T08:00:00Z, 09:00 in Berlin
        let timing = try AvailabilityTiming(
            span: .timed(start: start, end: start.addingTimeInterval(3600)), timeZone: berlin, recurrenceLines: "RRULE:FREQ=WEEKLY;COUNT=2")
        let occurrences = timing.occurrences(overlapping: start, start.addingTimeInterval(14 * 86_400), limit: 10)
        #expect(occurrences.map(\.start) == [start, start.addingTimeInterval(7 * 86_400 - 3600)])
        #expect(timing.recurrenceLines == "RRULE:FREQ=WEEKLY;COUNT=2")
    }

    @Test func anAllDayOccurrenceRunningIntoTheRangeIsFoundAndCoversItsDays() throws {
        let timing = try AvailabilityTiming(
            span: .allDay(first: try #require(CalendarDay("2027-03-01")), last: try #require(CalendarDay("2027-03-03"))), timeZone: .utc,
            recurrenceLines: "RRULE:FREQ=WEEKLY")
        let from = Date(timeIntervalSince1970: 1_804_550_400)  // 2027-03-09T00:00:00Z, the Tuesday of the second week
        let found = timing.occurrences(overlapping: from, from.addingTimeInterval(86_400), limit: 5)
        #expect(found.map { "\($0.days!.lowerBound)…\($0.days!.upperBound)" } == ["2027-03-08…2027-03-10"])
    }

    @Test func theBerlinVTimeZoneHasOneObservancePerTransitionInTheRange() throws {
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        var text = ICalendarText()
        let from = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01
        VTimeZone.write(berlin, from: from, through: from.addingTimeInterval(365 * 86_400), into: &text)
        #expect(text.text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"))
        #expect(text.text.contains("BEGIN:STANDARD\r\nDTSTART:20271031T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"))
        #expect(text.text.components(separatedBy: "BEGIN:").count - 1 == 4)  // the zone, the start, two transitions
    }
}
