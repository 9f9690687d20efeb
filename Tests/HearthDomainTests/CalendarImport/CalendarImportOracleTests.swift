import Foundation
import HearthDomain
import TestPython
import Testing

/// The fixtures of `tools/ics-oracle/fixtures` (weekly series across daylight saving with EXDATE,
/// a moved and a cancelled override, a VALARM; whole days, a yearly February 29, RDATE and
/// EXDATE dates; floating, UTC and TZID times, DURATION, RDATE, TRANSP, STATUS, a VTODO; an
/// Outlook VTIMEZONE; RECURRENCE-ID with RANGE=THISANDFUTURE moving and lengthening the rest of a
/// timed and of a whole-day series, with a single override and an EXDATE in between) expanded here and by Python's `icalendar` + `recurring_ical_events`
/// (`tools/ics-oracle/expand.py`), in several readers' zones and ranges: the same occurrences.
struct CalendarImportOracleTests {
    static let fixtures = TestPython.packageRoot.appendingPathComponent("tools/ics-oracle/fixtures")
    static let script = TestPython.packageRoot.appendingPathComponent("tools/ics-oracle/expand.py").path

    struct Expected: Decodable, Equatable {
        let uid: String
        let start: Value
        let end: Value

        /// Seconds since 1970, or a `YYYY-MM-DD` day.
        enum Value: Decodable, Equatable, CustomStringConvertible {
            case instant(Int)
            case day(String)

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let seconds = try? container.decode(Int.self) { self = .instant(seconds) } else { self = .day(try container.decode(String.self)) }
            }

            var description: String {
                switch self {
                case .instant(let seconds): Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
                case .day(let day): day
                }
            }
        }
    }

    @Test func fixturesExpandToTheOccurrencesRecurringICalEventsGives() throws {
        let names = ["weekly-berlin", "all-day", "floating-and-utc", "outlook-vtimezone", "this-and-future"]
        let ranges: [(from: String, to: String)] = [
            ("2026-03-01T00:00:00Z", "2026-05-01T00:00:00Z"), ("2026-03-25T12:00:00Z", "2026-03-31T00:00:00Z"),
            ("2027-02-01T00:00:00Z", "2029-03-05T00:00:00Z"),
        ]
        let zones = ["Europe/Berlin", "America/Los_Angeles", "Asia/Tokyo"]
        var cases: [(path: String, zone: String, from: Date, to: Date)] = []
        for name in names {
            for zone in zones {
                for range in ranges {
                    cases.append((Self.fixtures.appendingPathComponent(name + ".ics").path, zone, Self.date(range.from), Self.date(range.to)))
                }
            }
        }
        let input = try JSONSerialization.data(withJSONObject: cases.map {
            ["path": $0.path, "zone": $0.zone, "from": Int($0.from.timeIntervalSince1970), "to": Int($0.to.timeIntervalSince1970)] as [String: Any]
        })
        let outcome = try TestPython.run([Self.script], input: input)
        try #require(outcome.status == 0, "recurring_ical_events failed: \(outcome.errors)")
        let expected = try JSONDecoder().decode([[Expected]].self, from: outcome.standardOutput)
        try #require(expected.count == cases.count)
        var compared = 0
        for (test, oracle) in zip(cases, expected) {
            let file = try CalendarFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: test.path))), limits: CalendarFileLimits())
            let zone = try #require(TimeZoneRules.named(test.zone))
            let ours = try file.occurrences(from: test.from, to: test.to, timeZone: zone, limit: 1000).map { occurrence in
                occurrence.isAllDay
                    ? Expected(uid: occurrence.uid, start: .day(occurrence.firstDay!.description), end: .day(occurrence.endDay!.description))
                    : Expected(uid: occurrence.uid, start: .instant(Int(occurrence.start.timeIntervalSince1970)), end: .instant(Int(occurrence.end.timeIntervalSince1970)))
            }
            let sorted = ours.sorted { ($0.start.description, $0.uid) < ($1.start.description, $1.uid) }
            let oracleSorted = oracle.sorted { ($0.start.description, $0.uid) < ($1.start.description, $1.uid) }
            #expect(sorted == oracleSorted, "\(test.path) in \(test.zone) from \(test.from) to \(test.to)")
            compared += oracle.count
        }
        // The fixtures do produce occurrences to compare.
        #expect(compared > 100)
    }

    static func date(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }
}
