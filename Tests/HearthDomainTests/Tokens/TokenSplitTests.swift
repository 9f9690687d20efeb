import HearthDomain
import TestFixtures
import Testing

/// The rounding rule of shared rewards: largest remainder, ties in member-id order rotated by the seed.
struct TokenSplitTests {
    @Test func manyRandomSplitsNeverCreateOrLoseATokenAndRoundEachShareOnlyOnce() {
        var random = SeededRandom(seed: 14)
        for round in 0..<10_000 {
            let total = Int.random(in: 0...100_000, using: &random)
            let members = Int.random(in: 1...50, using: &random)
            let equal = Bool.random(using: &random)
            let weights = Dictionary(uniqueKeysWithValues: (0..<members).map { index in
                ("mem_\(Int.random(in: 0...1_000_000, using: &random))-\(index)", equal ? 1 : Int.random(in: 1...20, using: &random))
            })
            let shares = TokenSplit.apportion(total, weights: weights, seed: "cmp_\(round)")
            #expect(shares.values.reduce(0, +) == total, "round \(round): \(total) among \(weights)")
            let sum = weights.values.reduce(0, +)
            for (member, weight) in weights {
                let share = shares[member] ?? 0
                // The exact share is total × weight / sum: each gets it rounded down or up.
                let floor = total * weight / sum
                #expect(share == floor || (share == floor + 1 && (total * weight) % sum != 0), "round \(round): \(member)")
            }
            #expect(shares.values.allSatisfy { $0 > 0 })
            #expect(TokenSplit.apportion(total, weights: weights, seed: "cmp_\(round)") == shares)
        }
    }

    @Test func anEqualSplitGivesTheOddTokensToDifferentMembersForDifferentCompletions() {
        let weights = ["mem_a": 1, "mem_b": 1, "mem_c": 1]
        #expect(TokenSplit.apportion(10, weights: weights, seed: "cmp_1").values.sorted() == [3, 3, 4])
        var received: [String: Int] = [:]
        for seed in 0..<300 {
            let shares = TokenSplit.apportion(1, weights: weights, seed: "cmp_\(seed)")
            #expect(shares.count == 1)
            received[shares.keys.first!, default: 0] += 1
        }
        // Every member gets the odd token sometimes; nobody gets it nearly always.
        #expect(received.count == 3 && received.values.allSatisfy { $0 > 50 }, "\(received)")
    }

    @Test func largerRemaindersComeBeforeTiesAndWeightsAreHonoured() {
        // 10 × 1/3 = 3.33 and 10 × 2/3 = 6.67: the larger remainder (0.67) gets the odd token.
        #expect(TokenSplit.apportion(10, weights: ["mem_a": 1, "mem_b": 2], seed: "x") == ["mem_a": 3, "mem_b": 7])
        #expect(TokenSplit.apportion(7, weights: ["mem_only": 3], seed: "x") == ["mem_only": 7])
        #expect(TokenSplit.apportion(0, weights: ["mem_a": 1], seed: "x").isEmpty)
        #expect(TokenSplit.apportion(5, weights: [:], seed: "x").isEmpty)
    }

    @Test func theEarningsSplitChoosesTheRecipients() {
        #expect(TokenSplit.recipients(.fallback, completer: "c", assignees: ["a", "b"], participants: ["c"]) == ["a": 1, "b": 1])
        #expect(TokenSplit.recipients(.fallback, completer: "c", assignees: [], participants: ["p"]) == ["c": 1])
        #expect(TokenSplit.recipients(.equal, completer: "c", assignees: ["a"], participants: ["p", "c", "p"]) == ["p": 1, "c": 1])
        #expect(TokenSplit.recipients(.completer, completer: "c", assignees: ["a"], participants: ["p"]) == ["c": 1])
    }

    @Test func aPayoutsMoneyIsTheRateTimesTheTokensExactly() {
        #expect(DecimalAmount("0.10")!.value(of: 35)?.description == "3.50")
        #expect(DecimalAmount("0.0333")!.value(of: 3)?.description == "0.0999")
        #expect(DecimalAmount("100")!.value(of: 0)?.description == "0.00")
        #expect(DecimalAmount("1")!.value(of: -1) == nil)
        #expect(DecimalAmount.largest.value(of: 1) == DecimalAmount.largest)
        #expect(DecimalAmount("0.0001")!.value(of: Int(DecimalAmount.largest.tenThousandths) + 1) == nil)
        #expect(DecimalAmount.largest.value(of: Int.max) == nil)
        #expect(DecimalAmount(DecimalAmount.largest.description) == DecimalAmount.largest)
    }
}
