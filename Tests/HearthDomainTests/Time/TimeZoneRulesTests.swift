import Foundation
@testable import HearthDomain
import Support
import TestPython
import Testing

struct TimeZoneRulesTests {
    /// The zones of the recurrence tests, and others with transitions of every kind: negative
    /// daylight saving time (Dublin, Casablanca), two hours of it (Troll), 45-minute offsets
    /// (Chatham), the southern hemisphere (Santiago).
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia", "Asia/Kathmandu",
        "Europe/Dublin", "Africa/Casablanca", "Antarctica/Troll", "Pacific/Chatham", "America/Santiago", "UTC",
    ]

    /// Local readings and instants around every transition since 1900 (and through the footer's
    /// rule to 2300), converted here and by Python's zoneinfo, must agree to the second.
    @Test func conversionsAgreeWithPythonZoneinfo() throws {
        let firstInstant = -2_208_988_800  // 1900-01-01
        var samples: [[String: Any]] = []
        var expected: [(zone: String, local: Int, instant: Int)] = []
        for name in Self.zones {
            let zone = try RecurrenceTesting.zone(name)
            var points = zone.storage.transitions.filter { $0 > firstInstant }
            // The footer's rule, through 2300.
            if case .rule(let rule) = zone.storage.tail, let daylight = rule.daylight {
                for year in 2030...2300 {
                    points.append(daylight.start.localSeconds(inYear: year) - rule.standardOffset)
                    points.append(daylight.end.localSeconds(inYear: year) - daylight.offset)
                }
            }
            for point in points {
                for delta in [-86_400, -3601, -1800, -1, 0, 1, 1799, 3600, 5400, 86_400] {
                    let local = point + zone.offset(atInstant: point - 86_400) + delta
                    var hint = -1
                    expected.append((name, local, zone.instant(forLocal: local, hint: &hint)))
                    samples.append(["zone": name, "local": local, "instant": point + delta])
                }
            }
        }
        let script = """
            import json, sys
            from datetime import datetime, timedelta, timezone
            from zoneinfo import ZoneInfo
            epoch = datetime(1970, 1, 1)
            answers = []
            for sample in json.load(sys.stdin):
                zone = ZoneInfo(sample["zone"])
                local = (epoch + timedelta(seconds=sample["local"])).replace(tzinfo=zone)
                moment = datetime.fromtimestamp(sample["instant"], zone)
                answers.append([int(local.timestamp()), int(moment.utcoffset().total_seconds())])
            json.dump(answers, sys.stdout)
            """
        let outcome = try TestPython.run(["-c", script], input: try JSONSerialization.data(withJSONObject: samples))
        try #require(outcome.status == 0, "zoneinfo failed: \(outcome.errors)")
        let answers = try JSONDecoder().decode([[Int]].self, from: outcome.standardOutput)
        try #require(answers.count == samples.count)
        var mismatches: [String] = []
        for (index, answer) in answers.enumerated() {
            let zone = try RecurrenceTesting.zone(expected[index].zone)
            let instant = samples[index]["instant"] as! Int
            if answer[0] != expected[index].instant || answer[1] != zone.offset(atInstant: instant) {
                mismatches.append(
                    "\(expected[index].zone) local \(expected[index].local): \(expected[index].instant) vs \(answer[0]); "
                        + "instant \(instant): \(zone.offset(atInstant: instant)) vs \(answer[1])")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(answers.count): \(mismatches.prefix(10))")
        #expect(samples.count > 10_000)
    }

    @Test func secondsFromUTCReadsTheOffsetOfADate() throws {
        let berlin = try RecurrenceTesting.zone("Europe/Berlin")
        #expect(berlin.secondsFromUTC(at: RecurrenceTesting.utc("2026-01-15T12:00:00Z")) == 3600)
        #expect(berlin.secondsFromUTC(at: RecurrenceTesting.utc("2026-07-15T12:00:00Z")) == 7200)
        #expect(berlin.secondsFromUTC(at: RecurrenceTesting.utc("2300-07-15T12:00:00Z")) == 7200)
        #expect(TimeZoneRules.utc.secondsFromUTC(at: .distantFuture) == 0)
    }

    @Test func zonesAreLoadedOnceAndUnknownNamesAreNil() throws {
        let first = try RecurrenceTesting.zone("Asia/Kathmandu")
        let second = try RecurrenceTesting.zone("Asia/Kathmandu")
        #expect(first.storage === second.storage && first == second && first.description == "Asia/Kathmandu")
        #expect(first != (try RecurrenceTesting.zone("Asia/Kolkata")))
        for name in ["Mars/Olympus_Mons", "", "../zoneinfo/UTC", "posix/Europe/Berlin", "Europe/Berlin/"] {
            #expect(TimeZoneRules.named(name) == nil)
        }
        #expect(TimeZoneRules.named("UTC") == .utc)
    }

    @Test func malformedZoneFilesAreRefused() throws {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin").map(Array.init))
        #expect(TimeZoneRules(identifier: "Europe/Berlin", tzif: bytes) != nil)
        #expect(TimeZoneRules(identifier: "x", tzif: []) == nil)
        #expect(TimeZoneRules(identifier: "x", tzif: Array("TZjf".utf8) + bytes.dropFirst(4)) == nil)
        for length in [10, 44, 60, bytes.count / 2, bytes.count - 2] {
            #expect(TimeZoneRules(identifier: "x", tzif: Array(bytes.prefix(length))) == nil, "cut at \(length)")
        }
        // A footer that is not a TZ string.
        let footer = bytes.lastIndex(of: UInt8(ascii: "\n"), before: bytes.count - 1)
        #expect(TimeZoneRules(identifier: "x", tzif: Array(bytes[...footer]) + Array("CET-1CEST,M3\n".utf8)) == nil)
    }

    @Test func aVersionOneFileKeepsItsLastOffset() throws {
        // Header, one transition at 0 to type 1 (+01:00), types 0 (+00:00) and 1 (+01:00 DST).
        var file = Array("TZif".utf8) + [0] + Array(repeating: 0, count: 15)
        for count in [0, 0, 0, 1, 2, 4] { file += [0, 0, 0, UInt8(count)] }
        file += [0, 0, 0, 0] + [1] + [0, 0, 0, 0, 0, 0] + [0, 0, 0x0E, 0x10, 1, 0] + Array("ABC\0".utf8)
        let zone = try #require(TimeZoneRules(identifier: "Test/One", tzif: file))
        #expect(zone.offset(atInstant: -1) == 0 && zone.offset(atInstant: 0) == 3600 && zone.offset(atInstant: 4_000_000_000) == 3600)
    }

    @Test(arguments: [
        ("EST5EDT,M3.2.0,M11.1.0", -18_000, -14_400),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 37_800, 39_600),
        ("IST-1GMT0,M10.5.0,M3.5.0/1", 3600, 0),
        ("<-03>3", -10_800, nil),
        ("AAA3BBB,J60/0,J300/0", -10_800, -7200),
        ("AAA3BBB,59/0,300/-1:30", -10_800, -7200),
        ("<+0545>-5:45", 20_700, nil),
        ("CET", 0, nil),
    ] as [(String, Int, Int?)])
    func tzStringsReadTheirOffsets(text: String, standard: Int, daylight: Int?) throws {
        let rule = try #require(PosixTimeZoneRule(text))
        #expect(rule.standardOffset == standard)
        #expect(rule.daylight?.offset == daylight)
    }

    @Test(arguments: [
        "", "CET-1CEST", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-25", "<>-1", "<+1", "CET-1CEST,J0,J300",
        "CET-1CEST,M3.5.0/168,M10.5.0", "CET-1:5", "CET-1CEST,M3.5.0,M10.5.0,",
    ])
    func malformedTZStringsAreRefused(text: String) {
        #expect(PosixTimeZoneRule(text) == nil)
    }

    @Test func julianDaysSkipFebruary29AndZeroBasedDaysCountIt() throws {
        // J60 is 1 March in every year; day 59 (zero-based) is 29 February in a leap year.
        let julian = PosixTimeZoneRule.TransitionDate(day: .julian(60), time: 0)
        let zeroBased = PosixTimeZoneRule.TransitionDate(day: .zeroBased(59), time: 0)
        let march1 = CivilCalendar.dayNumber(year: 2024, month: 3, day: 1) * 86_400
        #expect(julian.localSeconds(inYear: 2024) == march1)
        #expect(zeroBased.localSeconds(inYear: 2024) == march1 - 86_400)
        #expect(julian.localSeconds(inYear: 2023) == CivilCalendar.dayNumber(year: 2023, month: 3, day: 1) * 86_400)
    }
}

extension Array where Element == UInt8 {
    /// The index of the last `byte` before `end`.
    func lastIndex(of byte: UInt8, before end: Int) -> Int {
        self[..<end].lastIndex(of: byte) ?? 0
    }
}
