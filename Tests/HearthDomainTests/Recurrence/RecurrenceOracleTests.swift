import Foundation
import HearthDomain
import TestPython
import Testing

/// Thousands of random rules (``RecurrenceRuleGenerator``) expanded here and by python-dateutil
/// with zoneinfo (`tools/recurrence-oracle/expand.py`, one Python process for the batch):
/// the first 50 occurrences, and the 10 from a random later instant, must be the same
/// instants. Set `HEARTH_TEST_SEED` to repeat a failure with the seed it printed, and
/// `HEARTH_ORACLE_CASES` to compare more (or fewer) than 3,000 rules.
struct RecurrenceOracleTests {
    static let caseCount = Int(ProcessInfo.processInfo.environment["HEARTH_ORACLE_CASES"] ?? "") ?? 3000
    static let script = TestPython.packageRoot.appendingPathComponent("tools/recurrence-oracle/expand.py").path

    struct Expansion: Decodable {
        let first: [Int]
        let later: [Int]
        let horizon: Int
    }

    @Test func randomRulesExpandToTheInstantsPythonDateutilGives() throws {
        let seed = SeededRandom.seed(fallback: 14_2026)
        var generator = RecurrenceRuleGenerator(seed: seed)
        var cases: [(text: String, zone: String, after: Int, rule: RecurrenceRule)] = []
        for index in 0..<Self.caseCount {
            let generated = generator.make()
            let zone = try RecurrenceTesting.zone(generated.defaultZone)
            do {
                let rule = try RecurrenceRule.parse(generated.text, defaultTimeZone: zone)
                cases.append((generated.text, generated.defaultZone, generated.after, rule))
            } catch {
                Issue.record("seed \(seed), case \(index): refused \(generated.text.debugDescription): \(error)")
            }
        }
        let input = try JSONSerialization.data(
            withJSONObject: cases.map { ["text": $0.rule.text, "zone": $0.zone, "after": $0.after] as [String: Any] })
        let outcome = try TestPython.run([Self.script], input: input)
        try #require(outcome.status == 0, "dateutil failed: \(outcome.errors)")
        let expansions = try JSONDecoder().decode([Expansion].self, from: outcome.standardOutput)
        try #require(expansions.count == cases.count)

        var failures = 0
        for (index, (test, expansion)) in zip(cases, expansions).enumerated() where failures < 10 {
            let end = Date(timeIntervalSince1970: Double(expansion.horizon + 1))
            let first = test.rule.occurrences(after: .distantPast, before: end, limit: 50).map(Self.seconds)
            let expectedFirst = Array(Self.withoutRepeats(expansion.first).prefix(50))
            let after = Date(timeIntervalSince1970: Double(test.after))
            let later = test.rule.occurrences(after: after, before: end, limit: 10).map(Self.seconds)
            let expectedLater = Array(Self.withoutRepeats(expansion.later).prefix(10))
            let wrongOccurrence = expectedFirst.first { !test.rule.isOccurrence(Date(timeIntervalSince1970: Double($0))) }
            guard first != expectedFirst || later != expectedLater || wrongOccurrence != nil else { continue }
            failures += 1
            Issue.record(
                """
                seed \(seed) (HEARTH_TEST_SEED=\(seed) repeats it), case \(index), zone \(test.zone):
                \(test.text)
                canonical:
                \(test.rule.text)
                first 50: ours \(Self.texts(first))
                     dateutil \(Self.texts(expectedFirst))
                after \(Self.texts([test.after])): ours \(Self.texts(later))
                     dateutil \(Self.texts(expectedLater))
                isOccurrence false for \(Self.texts(wrongOccurrence.map { [$0] } ?? []))
                """)
        }
    }

    static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970) }

    static func texts(_ instants: [Int]) -> [String] {
        RecurrenceTesting.texts(instants.map { Date(timeIntervalSince1970: Double($0)) })
    }

    /// The instants once each: wall-clock times that name one instant are one occurrence.
    static func withoutRepeats(_ instants: [Int]) -> [Int] {
        instants.enumerated().filter { $0.offset == 0 || instants[$0.offset - 1] != $0.element }.map(\.element)
    }
}
