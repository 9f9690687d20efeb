import Foundation
import HearthDomain
import Testing
import TestFixtures

/// The parser's deterministic fuzz test (libFuzzer's target is tools/fuzz/recurrence-parser):
/// seeded random mutations of generated rules must each be refused with an error that explains
/// itself, or accepted as a rule whose canonical text is a fixed point and whose occurrences
/// are strictly increasing, each one an occurrence. A crash or a hang fails the run.
struct RecurrenceMutationTests {
    static let mutationCount = 20_000

    /// Pieces that take the parser to its edges.
    static let tokens = [
        ";", ":", ",", "=", "\"", "\r\n", "\n", "\n ", "\r", "\t", "Z", "T", "+", "-", "0", "-1", "53", "366", "999999999",
        "99991231T235959", "19000101T000000", "FREQ=YEARLY", "FREQ=DAILY", "INTERVAL=", "COUNT=", "UNTIL=", "BYDAY=", "-5SU",
        "BYMONTHDAY=", "BYMONTH=", "BYSETPOS=", "WKST=", "TZID=", "TZID=Pacific/Apia", "VALUE=DATE", "EXDATE:", "RRULE:", "DTSTART:",
        "BYHOUR=9", "\u{0}", "é", "\u{1F600}", String(repeating: "9", count: 40),
    ]

    @Test func mutatedRulesAreRefusedWithAReasonOrKeepEveryInvariant() throws {
        let seed = SeededRandom.seed(fallback: 5545)
        var generator = RecurrenceRuleGenerator(seed: seed)
        var random = SeededRandom(seed: seed ^ 0xF0F0)
        let texts = (0..<200).map { _ in generator.make().text }
        let zone = try RecurrenceTesting.zone("Europe/Berlin")
        let limits = RecurrenceLimits(maximumTextLength: 1024, maximumExceptionDates: 16)
        var accepted = 0
        for index in 0..<Self.mutationCount {
            var bytes = Array(random.pick(texts).utf8)
            for _ in 0..<(random.chance(0.5) ? 1 : random.int(2...4)) { mutate(&bytes, with: &random, splicing: texts) }
            let text = String(decoding: bytes, as: UTF8.self)
            let context = "seed \(seed) (HEARTH_TEST_SEED), mutation \(index): \(text.debugDescription)"
            let rule: RecurrenceRule
            do {
                rule = try RecurrenceRule.parse(text, defaultTimeZone: zone, limits: limits)
            } catch {
                #expect(!error.message.isEmpty && (error.part?.count ?? 0) <= 40, "\(context): \(error)")
                continue
            }
            accepted += 1
            let again = try RecurrenceRule.parse(rule.text, defaultTimeZone: zone)
            #expect(again == rule && again.text == rule.text, "\(context)")
            let dates = rule.occurrences(after: .distantPast, limit: 12)
            #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 }, "\(context)")
            if let date = dates.last {
                #expect(rule.isOccurrence(date) && rule.occurrences(after: date, limit: 1) == [date], "\(context)")
            }
        }
        // Mutations must leave enough rules valid for the invariants to be exercised.
        #expect(accepted > Self.mutationCount / 20, "only \(accepted) accepted")
    }

    /// One random edit: flip, insert, delete, repeat, cut, or splice in part of another rule.
    private func mutate(_ bytes: inout [UInt8], with random: inout SeededRandom, splicing texts: [String]) {
        let position = bytes.isEmpty ? 0 : random.int(0...bytes.count)
        switch random.int(0...6) {
        case 0 where position < bytes.count:
            bytes[position] ^= UInt8(1) << random.int(0...7)
        case 1:
            bytes.insert(contentsOf: Array(random.pick(Self.tokens).utf8), at: position)
        case 2 where position < bytes.count:
            bytes.removeSubrange(position..<min(bytes.count, position + random.int(1...8)))
        case 3 where position < bytes.count:
            let end = min(bytes.count, position + random.int(1...40))
            bytes.insert(contentsOf: bytes[position..<end], at: end)
        case 4:
            bytes.removeSubrange(position...)
        case 5:
            let other = Array(random.pick(texts).utf8)
            let start = random.int(0...other.count)
            bytes.insert(contentsOf: other[start..<min(other.count, start + random.int(1...60))], at: position)
        default:
            // Change a number: the parts' values are where the ranges are checked.
            if let digit = bytes.indices.filter({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }).randomElement(using: &random) {
                bytes[digit] = UInt8(0x30 + random.int(0...9))
            }
        }
    }
}
