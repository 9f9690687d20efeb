import Foundation
import HearthDomain
import Testing

struct RecurrenceParsingTests {
    typealias T = RecurrenceTesting

    static let start = "DTSTART;TZID=Europe/Berlin:20260105T090000"

    /// Every refusal, with the part or property it must name.
    static let refusals: [(text: String, part: String?, code: RecurrenceError.Code)] = [
        ("\(start)\nRRULE:FREQ=DAILY;BYHOUR=9", "BYHOUR", .unsupported),
        ("\(start)\nRRULE:FREQ=DAILY;BYMINUTE=30", "BYMINUTE", .unsupported),
        ("\(start)\nRRULE:FREQ=DAILY;BYSECOND=0", "BYSECOND", .unsupported),
        ("\(start)\nRRULE:FREQ=YEARLY;BYWEEKNO=1", "BYWEEKNO", .unsupported),
        ("\(start)\nRRULE:FREQ=YEARLY;BYYEARDAY=100", "BYYEARDAY", .unsupported),
        ("\(start)\nRRULE:FREQ=MONTHLY;RSCALE=GREGORIAN", "RSCALE", .unsupported),
        ("\(start)\nRRULE:FREQ=DAILY;X-CHORE=1", "X-CHORE", .unsupported),
        ("\(start)\nRRULE:FREQ=SECONDLY", "FREQ", .unsupported),
        ("\(start)\nRRULE:FREQ=MINUTELY", "FREQ", .unsupported),
        ("\(start)\nRRULE:FREQ=HOURLY", "FREQ", .unsupported),
        ("\(start)\nRRULE:FREQ=FORTNIGHTLY", "FREQ", .malformed),
        ("\(start)\nRRULE:INTERVAL=2", "FREQ", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;FREQ=WEEKLY", "FREQ", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;INTERVAL=0", "INTERVAL", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;INTERVAL=-2", "INTERVAL", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;INTERVAL=1000000000", "INTERVAL", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;INTERVAL=two", "INTERVAL", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;COUNT=0", "COUNT", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;COUNT=3;UNTIL=20261231T000000Z", "COUNT", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;UNTIL=2026", "UNTIL", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;UNTIL=20260230T000000Z", "UNTIL", .malformed),
        ("\(start)\nRRULE:FREQ=YEARLY;BYMONTH=13", "BYMONTH", .malformed),
        ("\(start)\nRRULE:FREQ=YEARLY;BYMONTH=0", "BYMONTH", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,,2", "BYMONTHDAY", .malformed),
        ("\(start)\nRRULE:FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY", .malformed),
        ("\(start)\nRRULE:FREQ=WEEKLY;BYDAY=XX", "BYDAY", .malformed),
        ("\(start)\nRRULE:FREQ=WEEKLY;BYDAY=", "BYDAY", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYDAY=0MO", "BYDAY", .malformed),
        ("\(start)\nRRULE:FREQ=YEARLY;BYDAY=54MO", "BYDAY", .malformed),
        ("\(start)\nRRULE:FREQ=WEEKLY;BYDAY=1MO", "BYDAY", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;BYDAY=-1FR", "BYDAY", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367", "BYSETPOS", .malformed),
        ("\(start)\nRRULE:FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS", .malformed),
        ("\(start)\nRRULE:FREQ=WEEKLY;WKST=XY", "WKST", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;", "RRULE", .malformed),
        ("\(start)\nRRULE:FREQ", "RRULE", .malformed),
        ("\(start)\nRRULE;X-A=1:FREQ=DAILY", "RRULE", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY", "RRULE", .unsupported),
        ("\(start)", "RRULE", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\nRDATE:20260110T090000Z", "RDATE", .unsupported),
        ("\(start)\nRRULE:FREQ=DAILY\nEXRULE:FREQ=WEEKLY", "EXRULE", .unsupported),
        ("\(start)\nRRULE:FREQ=DAILY\nSUMMARY:Dishes", "SUMMARY", .unsupported),
        ("RRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("\(start)\n\(start)\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART:2026\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART:20260230T090000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART:20260101T240000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART:20260101T235960\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART:18991231T090000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART:20260101T090000,20260102T090000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART;TZID=Europe/Berlin:20260101T090000Z\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART;VALUE=DATE:20260101\nRRULE:FREQ=DAILY", "DTSTART", .unsupported),
        ("DTSTART;LANGUAGE=de:20260101T090000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART;TZID=Europe/Berlin;TZID=UTC:20260101T090000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("DTSTART;TZID=Mars/Olympus_Mons:20260101T090000\nRRULE:FREQ=DAILY", "TZID", .unknownTimeZone),
        ("DTSTART;TZID=../../etc/passwd:20260101T090000\nRRULE:FREQ=DAILY", "TZID", .unknownTimeZone),
        ("DTSTART;TZID=\"Europe/Berlin:20260101T090000\nRRULE:FREQ=DAILY", "DTSTART", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\nEXDATE:2026", "EXDATE", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\nEXDATE;TZID=Nowhere/Land:20260106T090000", "TZID", .unknownTimeZone),
        ("\(start)\nRRULE:FREQ=DAILY\nEXDATE;VALUE=DATE:20260106", "EXDATE", .unsupported),
        ("\(start)\nRRULE:FREQ=DAILY\nEXDATE:20260106T090000,", "EXDATE", .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\n:20260106T090000", nil, .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\nEXDATE 20260106T090000", "EXDATE", .malformed),
        ("\(start)\rRRULE:FREQ=DAILY", nil, .malformed),
        ("\(start)\nRRULE:FREQ=DAILY;BYDAY=MO\u{00A0}", nil, .malformed),
        ("\(start)\nRRULE:FREQ=DAILY\u{0}", nil, .malformed),
        // A line that starts with a space continues the previous one: here DTSTART swallows the RRULE.
        (" \(start)\n RRULE:FREQ=DAILY", "RRULE", .malformed),
    ]

    @Test(arguments: refusals)
    func refusalsNameTheirPart(text: String, part: String?, code: RecurrenceError.Code) throws {
        let zone = try T.zone("Europe/Berlin")
        do {
            let rule = try RecurrenceRule.parse(text, defaultTimeZone: zone)
            Issue.record("accepted \(text.debugDescription) as \(rule.text.debugDescription)")
        } catch {
            #expect(error.part == part, "\(text.debugDescription): \(error)")
            #expect(error.code == code, "\(text.debugDescription): \(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func theTextLimitAdmitsItsLengthAndNotOneByteMore() throws {
        let text = Self.start + "\nRRULE:FREQ=DAILY"
        let zone = try T.zone("Europe/Berlin")
        let exact = RecurrenceLimits(maximumTextLength: text.utf8.count)
        #expect((try? RecurrenceRule.parse(text, defaultTimeZone: zone, limits: exact)) != nil)
        let short = RecurrenceLimits(maximumTextLength: text.utf8.count - 1)
        #expect(throws: RecurrenceError(code: .limitExceeded, part: nil, message: "A recurrence is at most \(text.utf8.count - 1) bytes long.")) {
            try RecurrenceRule.parse(text, defaultTimeZone: zone, limits: short)
        }
    }

    @Test func theDefaultTextLimitIsFourKibibytes() throws {
        let text = Self.start + "\nRRULE:FREQ=DAILY\n"
        let padded = text + String(repeating: "\n", count: 4096 - text.utf8.count)
        #expect(padded.utf8.count == 4096)
        #expect((try? T.rule(padded)) != nil)
        #expect(throws: RecurrenceError.self) { try T.rule(padded + "\n") }
    }

    @Test func theExceptionLimitCountsValuesOverEveryLine() throws {
        let limits = RecurrenceLimits(maximumExceptionDates: 3)
        let two = "EXDATE;TZID=Europe/Berlin:20260106T090000,20260107T090000"
        let rule = try T.rule(Self.start, "RRULE:FREQ=DAILY", two, "EXDATE:20260108T080000Z", limits: limits)
        #expect(T.first(2, of: rule) == ["2026-01-05T08:00:00Z", "2026-01-09T08:00:00Z"])
        #expect(throws: RecurrenceError(code: .limitExceeded, part: "EXDATE", message: "A recurrence has at most 3 EXDATE values.")) {
            try T.rule(Self.start, "RRULE:FREQ=DAILY", two, "EXDATE:20260108T080000Z,20260109T080000Z", limits: limits)
        }
        #expect(RecurrenceLimits() == RecurrenceLimits(maximumTextLength: 4096, maximumExceptionDates: 256))
    }

    @Test func namesAreCaseInsensitiveLinesMayEndInCRLFAndBeFolded() throws {
        let text = "dtstart;tzid=Europe/Berlin:20260105t090000\r\nrrule:freq=weekly;by\r\n day=mo,fr;wkst=mo;interval=1;count=4\r\n"
            + "exdate:20260112T080000z\r\nexdate;value=date-time;tzid=\"Europe/Berlin\":20260109T090000,20260105T090000\r\n"
        let rule = try RecurrenceRule.parse(text, defaultTimeZone: T.zone("UTC"))
        #expect(
            rule.text == """
                DTSTART;TZID=Europe/Berlin:20260105T090000
                RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO,FR
                EXDATE;TZID=Europe/Berlin:20260105T090000,20260109T090000
                EXDATE:20260112T080000Z
                """)
        #expect(T.first(5, of: rule) == ["2026-01-16T08:00:00Z"])
    }

    @Test func theCanonicalTextParsesToAnEqualRule() throws {
        let rule = try T.rule(
            "DTSTART:20260105T090000", "RRULE:BYSETPOS=-1,1;BYDAY=FR,-1MO,MO;WKST=SU;BYMONTH=12,3;UNTIL=20301231;INTERVAL=2;FREQ=YEARLY",
            "EXDATE:20270105T090000", defaultZone: "Asia/Kathmandu")
        #expect(
            rule.text == """
                DTSTART:20260105T090000
                RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20301231;BYMONTH=3,12;BYDAY=MO,FR,-1MO;BYSETPOS=-1,1;WKST=SU
                EXDATE:20270105T090000
                """)
        let again = try T.rule(rule.text, defaultZone: "Asia/Kathmandu")
        #expect(again == rule && again.hashValue == rule.hashValue && again.text == rule.text)
        #expect(T.first(20, of: again) == T.first(20, of: rule))
        // The same floating text in another default zone is another rule.
        #expect(try T.rule(rule.text, defaultZone: "Europe/Berlin") != rule)
    }

    @Test func anUnknownZoneIsRefusedByNameAndALongNameIsCut() throws {
        let zone = try T.zone("Europe/Berlin")
        #expect(throws: RecurrenceError(
            code: .unknownTimeZone, part: "TZID",
            message: "Mars/Olympus_Mons is not a time zone of the IANA database; name one such as Europe/Berlin.")) {
            try RecurrenceRule.parse("DTSTART;TZID=Mars/Olympus_Mons:20260101T090000\nRRULE:FREQ=DAILY", defaultTimeZone: zone)
        }
        let long = String(repeating: "x", count: 200)
        do {
            _ = try RecurrenceRule.parse("DTSTART;TZID=\(long):20260101T090000\nRRULE:FREQ=DAILY", defaultTimeZone: zone)
            Issue.record("an unknown zone parsed")
        } catch {
            #expect(error.message.contains(String(repeating: "x", count: 40) + "…") && !error.message.contains(String(repeating: "x", count: 41)))
        }
    }

    @Test func zonesAreResolvedWithTheGivenLookup() throws {
        var asked: [String] = []
        let rule = try RecurrenceRule.parse(
            "DTSTART;TZID=Somewhere:20260105T090000\nRRULE:FREQ=DAILY", defaultTimeZone: .utc, limits: RecurrenceLimits(),
            timeZones: { name in
                asked.append(name)
                return TimeZoneRules.named("Asia/Kathmandu")
            })
        #expect(asked == ["Somewhere"])
        #expect(T.first(1, of: rule) == ["2026-01-05T03:15:00Z"])
    }
}
