import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The balance kept beside the ledger always equals the sum of the entries, whatever happens.
struct BalanceConsistencyTests {
    @Test func afterARandomSequenceOfOperationsEveryBalanceIsTheSumOfItsLedger() async throws {
        try await TokensFixture.with(configure: { $0.maximumPendingRedemptionsPerMember = 1_000 }) { f in
            _ = try await f.h.service.updateEconomySettings(householdID: f.householdID, .init(earningsSplit: .equal), viewer: f.ana)
            let members = [f.anaMember, f.benMember, try await f.shadow("Kid"), try await f.shadow("Teen")]
            let rewards = [
                try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Small", tokenCost: 3), viewer: f.ana).reward.id,
                try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Big", tokenCost: 40, stock: 5), viewer: f.ana).reward.id,
            ]
            var random = SeededRandom(seed: 489)
            var pending: [String] = []
            var credited: [String] = []
            var refusals = 0
            for step in 0..<400 {
                let member = members.randomElement(using: &random)!
                do {
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0:
                        _ = try await f.tokens.giveBonusTokens(memberID: member, amount: .random(in: 1...30, using: &random), note: "Kind", viewer: f.ana)
                    case 1:
                        _ = try await f.tokens.adjustTokens(memberID: member, amount: .random(in: -20...20, using: &random) | 1, note: "Fix", viewer: f.ana)
                    case 2:
                        _ = try await f.tokens.recordPayout(memberID: member, tokens: .random(in: 1...25, using: &random), note: nil, viewer: f.ana)
                    case 3:
                        let rewardID = rewards.randomElement(using: &random)!
                        pending.append(try await f.tokens.redeemReward(rewardID: rewardID, memberID: member, viewer: f.ana).redemption.id)
                    case 4 where !pending.isEmpty:
                        _ = try await f.tokens.approveRedemption(id: pending.removeFirst(), viewer: f.ana)
                    case 5 where !pending.isEmpty:
                        _ = try await f.tokens.rejectRedemption(id: pending.removeLast(), reason: nil, viewer: f.ana)
                    case 6:
                        let id = "cmp_\(step)"
                        let credit = CompletionCredit(
                            completionID: id, choreID: "chr_1", tokens: .random(in: 0...17, using: &random), completerID: member,
                            participantIDs: members.filter { _ in Bool.random(using: &random) })
                        _ = try f.inTransaction { scope, now in try TokenCredits.credit(completion: credit, recordedBy: nil, in: scope, at: now) }
                        credited.append(id)
                    default:
                        guard let id = credited.randomElement(using: &random) else { continue }
                        _ = try f.inTransaction { scope, now in try TokenCredits.reverse(completion: id, recordedBy: nil, in: scope, at: now) }
                    }
                } catch let error as ServiceError where error.reason == .insufficientTokens || error.reason == .outOfStock {
                    refusals += 1
                }
                f.h.clock.advance(seconds: 1)
                for member in members {
                    let (stored, sum) = (try f.storedBalance(member), try f.ledgerSum(member))
                    #expect(stored >= 0 && stored == sum, "step \(step), \(member)")
                    let latest = try f.h.sqlText(
                        "SELECT coalesce((SELECT balance_after FROM token_ledger WHERE member_id = '\(member)' ORDER BY position DESC LIMIT 1), 0)")
                    #expect(latest == String(stored))
                    // Positions are gapless: 1…n for n entries.
                    #expect(try f.h.sqlText("SELECT CASE WHEN count(*) = coalesce(max(position), 0) THEN 1 ELSE 0 END FROM token_ledger WHERE member_id = '\(member)'") == "1")
                }
            }
            let entries = try f.h.sqlText("SELECT count(*) FROM token_ledger").flatMap { Int($0) } ?? 0
            #expect(refusals > 0 && entries > 200)
        }
    }
}
