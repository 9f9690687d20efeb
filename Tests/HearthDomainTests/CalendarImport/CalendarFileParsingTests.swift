import Foundation
import HearthDomain
import Testing

/// What the calendar file parser accepts and how it refuses: every refusal names the line at
/// fault, and limits hold at their edges.
struct CalendarFileParsingTests {
    /// `lines` joined by CRLF.
    static func file(_ lines: [String]) -> [UInt8] {
        Array(lines.joined(separator: "\r\n").utf8)
    }

    /// A calendar around `events`, each given as its lines without BEGIN and END.
    static func calendar(_ events: [[String]]) -> [UInt8] {
        file(["BEGIN:VCALENDAR", "VERSION:2.0"] + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"])
    }

    static func refusal(_ bytes: [UInt8], limits: CalendarFileLimits = CalendarFileLimits()) -> RecurrenceError? {
        do {
            _ = try CalendarFile.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func eventsAreReadWithTheirTextUnescapedAndUnfolded() throws {
        let bytes = Self.file([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a@test", "SUMMARY:Fr\u{FC}hst\u{FC}ck\\, Kaffee\\; Tee\\n und", "  mehr", "LOCATION:K\u{FC}che",
            "DTSTART;X-CUSTOM=1:20260301T080000Z", "TRANSP:TRANSPARENT", "STATUS:CONFIRMED", "END:VEVENT", "END:VCALENDAR",
        ])
        let event = try #require(try CalendarFile.parse(bytes, limits: CalendarFileLimits()).events.first)
        #expect(event.uid == "a@test")
        #expect(event.summary == "Fr\u{FC}hst\u{FC}ck, Kaffee; Tee\n und mehr")
        #expect(event.location == "K\u{FC}che")
        #expect(!event.isBusy && !event.isCancelled && !event.isAllDay && !event.isRecurring)
        #expect(event.lineNumber == 2)
    }

    @Test(arguments: [
        // (lines, the line the error names, words of its message)
        (["BEGIN:VEVENT", "END:VEVENT"], 1, "starts with BEGIN:VCALENDAR"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "END:VEVENT"], 1, "never ended"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "END:VTODO", "END:VCALENDAR"], 5, "still open"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20261301T080000Z", "END:VEVENT", "END:VCALENDAR"], 4, "DTSTART"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20260301T080000Z", "END:VEVENT", "END:VCALENDAR"], 2, "UID"),
        (["BEGIN:VCALENDAR", "", "BEGIN:VEVENT", "UID:x", "END:VEVENT", "END:VCALENDAR"], 3, "DTSTART"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "DTEND:20260301T070000Z", "END:VEVENT", "END:VCALENDAR"], 5, "before DTSTART"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART;TZID=Mars/Olympus:20260301T080000", "END:VEVENT", "END:VCALENDAR"], 4, "Mars/Olympus"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "DURATION:PT1X", "END:VEVENT", "END:VCALENDAR"], 5, "DURATION"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART;VALUE=DATE:20260301", "EXDATE:20260302T080000", "END:VEVENT", "END:VCALENDAR"], 5, "EXDATE"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "no colon here", "END:VEVENT", "END:VCALENDAR"], 5, "colon"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "END:VEVENT", "BEGIN:VEVENT", "UID:x", "DTSTART:20260302T080000Z",
          "END:VEVENT", "END:VCALENDAR"], 6, "line 2"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:20260301T080000Z", "SUMMARY:bell\u{7}", "END:VEVENT", "END:VCALENDAR"], 5, "control"),
    ])
    func malformedFilesAreRefusedNamingTheLine(lines: [String], line: Int, words: String) throws {
        let error = try #require(Self.refusal(Self.file(lines)))
        #expect(error.line == line, "\(error)")
        #expect(error.description.contains(words), "\(error)")
        #expect(error.description.hasPrefix("Line \(line): "))
    }

    @Test(arguments: [
        // (the unsupported line, words of the reason)
        ("RRULE:FREQ=HOURLY", "HOURLY"), ("RRULE:FREQ=MINUTELY;COUNT=3", "MINUTELY"), ("RRULE:FREQ=DAILY;BYHOUR=9,17", "BYHOUR"),
        ("RRULE:FREQ=DAILY;BYMINUTE=30", "BYMINUTE"), ("RRULE:FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO"), ("EXRULE:FREQ=WEEKLY", "EXRULE"),
    ])
    func eventsWithUnsupportedRecurrenceAreSkippedAndReported(line: String, words: String) throws {
        let file = try CalendarFile.parse(Self.file([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:kept-1", "DTSTART:20260301T080000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:odd", "DTSTART:20260301T080000Z", line, "END:VEVENT",
            "BEGIN:VEVENT", "UID:kept-2", "DTSTART:20260302T080000Z", "RRULE:FREQ=DAILY;COUNT=2", "END:VEVENT", "END:VCALENDAR",
        ]), limits: CalendarFileLimits())
        #expect(file.events.map(\.uid) == ["kept-1", "kept-2"])
        #expect(file.skippedEvents.count == 1)
        let skipped = try #require(file.skippedEvents.first)
        #expect(skipped.uid == "odd" && skipped.line == 9, "\(skipped)")
        #expect(skipped.reason.hasPrefix("Line 9: ") && skipped.reason.contains(words), "\(skipped)")
    }

    @Test func theLineNumberCountsFoldedLinesAndLineFeeds() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nSUMMARY:a\n  folded\n  twice\nDTSTART:2026\n 0301T080000Q\nEND:VEVENT\nEND:VCALENDAR\n"
        let error = try #require(Self.refusal(Array(text.utf8)))
        #expect(error.line == 7)
    }

    @Test func theFileSizeLimitHoldsAtItsEdge() throws {
        let bytes = Self.calendar([["UID:x", "DTSTART:20260301T080000Z"]])
        #expect(Self.refusal(bytes, limits: CalendarFileLimits(maximumBytes: bytes.count)) == nil)
        let error = try #require(Self.refusal(bytes, limits: CalendarFileLimits(maximumBytes: bytes.count - 1)))
        #expect(error.code == .limitExceeded)
    }

    @Test func theEventLimitHoldsAtItsEdge() throws {
        let bytes = Self.calendar((1...3).map { ["UID:\($0)", "DTSTART:20260301T080000Z"] })
        #expect(Self.refusal(bytes, limits: CalendarFileLimits(maximumEvents: 3)) == nil)
        let error = try #require(Self.refusal(bytes, limits: CalendarFileLimits(maximumEvents: 2)))
        #expect(error.code == .limitExceeded)
        #expect(error.line == 11)
    }

    @Test func theOccurrenceLimitHoldsAtItsEdge() throws {
        let file = try CalendarFile.parse(Self.calendar([["UID:d", "DTSTART:20260301T080000Z", "RRULE:FREQ=DAILY"]]), limits: CalendarFileLimits())
        let from = Date(timeIntervalSince1970: 1_772_323_200)  // 2026-03-01T00:00Z
        let tenDays = from.addingTimeInterval(10 * 86_400)
        #expect(try file.occurrences(from: from, to: tenDays, timeZone: .utc, limit: 10).count == 10)
        #expect(throws: RecurrenceError.self) { try file.occurrences(from: from, to: tenDays, timeZone: .utc, limit: 9) }
    }

    @Test func anEmptyOrBackwardRangeHasNoOccurrences() throws {
        let file = try CalendarFile.parse(Self.calendar([["UID:d", "DTSTART:20260301T080000Z", "RRULE:FREQ=DAILY"]]), limits: CalendarFileLimits())
        let from = Date(timeIntervalSince1970: 1_772_323_200)
        #expect(try file.occurrences(from: from, to: from, timeZone: .utc, limit: 10).isEmpty)
        #expect(try file.occurrences(from: from.addingTimeInterval(86_400), to: from, timeZone: .utc, limit: 10).isEmpty)
        #expect(try file.occurrences(from: Date(timeIntervalSince1970: .nan), to: from, timeZone: .utc, limit: 10).isEmpty)
    }

    @Test func storedEventsReadTheSameAsTheFile() throws {
        let path = CalendarImportOracleTests.fixtures.appendingPathComponent("weekly-berlin.ics").path
        let file = try CalendarFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), limits: CalendarFileLimits())
        let stored = try CalendarFile.parse(stored: file.timeZoneText, events: file.events.map(\.text))
        let from = Date(timeIntervalSince1970: 1_772_323_200)
        let to = from.addingTimeInterval(90 * 86_400)
        let zone = try #require(TimeZoneRules.named("Asia/Tokyo"))
        #expect(try stored.occurrences(from: from, to: to, timeZone: zone, limit: 500) == file.occurrences(from: from, to: to, timeZone: zone, limit: 500))
        #expect(stored.events.map(\.recurrenceKey) == file.events.map(\.recurrenceKey))
    }

    @Test func busyPeriodsMergeOverlapsAndLeaveTransparentTimeOut() throws {
        let file = try CalendarFile.parse(Self.calendar([
            ["UID:a", "DTSTART:20260301T080000Z", "DTEND:20260301T090000Z"],
            ["UID:b", "DTSTART:20260301T083000Z", "DTEND:20260301T100000Z"],
            ["UID:c", "DTSTART:20260301T100000Z", "DURATION:PT30M"],
            ["UID:d", "DTSTART:20260301T120000Z", "DURATION:PT1H", "TRANSP:TRANSPARENT"],
            ["UID:e", "DTSTART:20260301T130000Z", "DURATION:PT1H"],
        ]), limits: CalendarFileLimits())
        let from = Date(timeIntervalSince1970: 1_772_323_200)
        let periods = BusyPeriod.merging(try file.occurrences(from: from, to: from.addingTimeInterval(86_400), timeZone: .utc, limit: 10))
        let hours: [[Double]] = periods.map { period in
            [period.start.timeIntervalSince(from) / 3600, period.end.timeIntervalSince(from) / 3600]
        }
        #expect(hours == [[8, 10.5], [13, 14]])
    }
}
