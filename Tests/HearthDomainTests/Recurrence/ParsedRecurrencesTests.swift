import FoundationEssentials
@testable import HearthDomain
import Testing
import TestFixtures

/// The rules ``ParsedRecurrences`` keeps are the rules parsing gives: random rules
/// (``RecurrenceRuleGenerator``) read through a timeline twice (parsed, then kept) give the same
/// rule and the same due times as a fresh parse, in their zone and in another.
struct ParsedRecurrencesTests {
    @Test func aKeptRuleIsTheOneParsingGives() throws {
        let seed = SeededRandom.seed(fallback: 4_12_2026)
        var generator = RecurrenceRuleGenerator(seed: seed)
        for index in 0..<1_000 {
            let generated = generator.make()
            let zones = [try RecurrenceTesting.zone(generated.defaultZone), try RecurrenceTesting.zone(generator.random.pick(RecurrenceRuleGenerator.zones))]
            for zone in zones {
                let fresh = try RecurrenceRule.parse(generated.text, defaultTimeZone: zone, limits: .unlimited)
                let after = Date(timeIntervalSince1970: Double(generated.after))
                let expected = fresh.occurrences(after: after, limit: 5)
                for round in 0..<2 {
                    let kept = try ParsedRecurrences.rule(generated.text, defaultTimeZone: zone)
                    #expect(kept == fresh && kept.timeZone == fresh.timeZone, "seed \(seed), case \(index), round \(round): \(generated.text)")
                    let timeline = try ChoreTimeline(.recurrence(generated.text), timeZone: zone)
                    #expect(timeline.dueTimes(after: after, limit: 5) == expected, "seed \(seed), case \(index), round \(round): \(generated.text)")
                }
            }
        }
    }

    @Test func aFloatingStartIsReadInEachZoneItIsAskedFor() throws {
        let text = "DTSTART:20261201T080000\nRRULE:FREQ=DAILY"
        let berlin = try ParsedRecurrences.rule(text, defaultTimeZone: try RecurrenceTesting.zone("Europe/Berlin"))
        let newYork = try ParsedRecurrences.rule(text, defaultTimeZone: try RecurrenceTesting.zone("America/New_York"))
        #expect(berlin.start != newYork.start)
        #expect(berlin.timeZone.identifier == "Europe/Berlin" && newYork.timeZone.identifier == "America/New_York")
    }

    @Test func textThatDoesNotParseThrowsEachTime() {
        for _ in 0..<2 {
            #expect(throws: RecurrenceError.self) { try ParsedRecurrences.rule("RRULE:FREQ=DAILY", defaultTimeZone: .utc) }
        }
    }

    @Test func rulesBeyondTheCapacityStillReadRight() throws {
        let zone = try RecurrenceTesting.zone("Europe/Berlin")
        for minute in 0..<(ParsedRecurrences.capacity + 10) {
            let time = [minute / 60 % 24, minute % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
            let text = "DTSTART;TZID=Europe/Berlin:20261201T\(time)00\nRRULE:FREQ=DAILY;INTERVAL=\(minute / 1_440 + 1)"
            let kept = try ParsedRecurrences.rule(text, defaultTimeZone: zone)
            #expect(kept == (try RecurrenceRule.parse(text, defaultTimeZone: zone, limits: .unlimited)))
        }
    }
}
