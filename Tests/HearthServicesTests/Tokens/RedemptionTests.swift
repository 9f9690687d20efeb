import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Asking for rewards: tokens held until an admin approves (spent) or rejects (released).
struct RedemptionTests {
    private func reward(_ f: TokensFixture, cost: Int, stock: Int? = nil, for members: [String]? = nil) async throws -> String {
        try await f.tokens.createReward(
            householdID: f.householdID, RewardDraft(name: "Reward", tokenCost: cost, stock: stock, eligibleMemberIDs: members), viewer: f.ana
        ).reward.id
    }

    @Test func askingHoldsTheTokensAndApprovingSpendsThem() async throws {
        try await TokensFixture.with { f in
            try await f.give(100, to: f.benMember)
            let rewardID = try await reward(f, cost: 30, stock: 2)
            let (redemption, _) = try await f.tokens.redeemReward(rewardID: rewardID, viewer: f.ben)
            #expect(redemption.id.hasPrefix("rdm_") && redemption.status == .pending && redemption.tokenCost == 30)
            #expect(redemption.memberID == f.benMember && redemption.requestedBy == f.benMember)
            #expect(try await f.tokens.tokens(of: f.member(f.benMember, as: f.ben), f.access(f.ben)) == TokenBalance(balance: 70, held: 30))
            #expect(try f.h.sqlText("SELECT stock FROM rewards") == "1")
            let approved = try await f.tokens.approveRedemption(id: redemption.id, viewer: f.ana).redemption
            #expect(approved.status == .approved && approved.reviewedBy == f.anaMember && approved.reviewedAt != nil)
            #expect(try await f.tokens.tokens(of: f.member(f.benMember, as: f.ben), f.access(f.ben)) == TokenBalance(balance: 70, held: 0))
            let kinds = try #require(try await f.tokens.ledger(of: f.member(f.benMember, as: f.ben), f.access(f.ben))).edges.map(\.item.kind)
            #expect(kinds == [.redemptionDebit, .redemptionHold, .bonus])
            let again = await #expect(throws: ServiceError.self) { try await f.tokens.rejectRedemption(id: redemption.id, reason: nil, viewer: f.ana) }
            #expect(again?.reason == .alreadyReviewed)
        }
    }

    @Test func rejectingReleasesTheTokensAndTheStock() async throws {
        try await TokensFixture.with { f in
            try await f.give(30, to: f.benMember)
            let rewardID = try await reward(f, cost: 30, stock: 1)
            let redemption = try await f.tokens.redeemReward(rewardID: rewardID, viewer: f.ben).redemption
            let rejected = try await f.tokens.rejectRedemption(id: redemption.id, reason: "Not this week", viewer: f.ana).redemption
            #expect(rejected.status == .rejected && rejected.reason == "Not this week")
            #expect(try f.storedBalance(f.benMember) == 30 && f.h.sqlText("SELECT stock FROM rewards") == "1")
            #expect(try f.h.sqlText("SELECT kind FROM token_ledger ORDER BY position DESC LIMIT 1") == "redemption_release")
            let page = try await f.tokens.redemptions(f.access(f.ana), status: .rejected)
            #expect(page.edges.map(\.item.id) == [redemption.id] && page.totalCount == 1)
        }
    }

    @Test func everyRefusalLeavesBalanceStockAndRequestsUntouched() async throws {
        try await TokensFixture.with(configure: { $0.maximumPendingRedemptionsPerMember = 1 }) { f in
            try await f.give(20, to: f.benMember)
            let expensive = try await reward(f, cost: 21)
            let soldOut = try await reward(f, cost: 1, stock: 0)
            let forAna = try await reward(f, cost: 1, for: [f.anaMember])
            let cheap = try await reward(f, cost: 1)
            let cases: [(ServiceError.Code, ServiceError.Reason?, String, Viewer)] = [
                (.conflict, .insufficientTokens, expensive, f.ben), (.conflict, .outOfStock, soldOut, f.ben), (.forbidden, .notEligible, forAna, f.ben),
                (.notFound, nil, cheap, f.eve),
            ]
            for (code, reason, rewardID, viewer) in cases {
                let refused = await #expect(throws: ServiceError.self) { try await f.tokens.redeemReward(rewardID: rewardID, viewer: viewer) }
                #expect(refused?.code == code && refused?.reason == reason, "\(String(describing: refused))")
            }
            // At the limit of pending requests (1 here), one more waits for a decision first.
            _ = try await f.tokens.redeemReward(rewardID: cheap, viewer: f.ben)
            let overLimit = await #expect(throws: ServiceError.self) { try await f.tokens.redeemReward(rewardID: cheap, viewer: f.ben) }
            #expect(overLimit?.code == .conflict && overLimit?.reason == .limitReached)
            #expect(try f.storedBalance(f.benMember) == 19 && f.h.sqlText("SELECT count(*) FROM reward_redemptions") == "1")
            #expect(try f.h.sqlText("SELECT stock FROM rewards WHERE id = '\(soldOut)'") == "0")
        }
    }

    @Test func parentsAskForChildrenAdminsForAnyoneAndMembersOnlyForThemselves() async throws {
        try await TokensFixture.with { f in
            let kid = try await f.shadow("Kid")
            for member in [kid, f.benMember, f.anaMember] { try await f.give(10, to: member) }
            let rewardID = try await reward(f, cost: 1)
            // Ben is an adult member (not an admin): for a child, yes; for another adult, no.
            let forKid = try await f.tokens.redeemReward(rewardID: rewardID, memberID: kid, viewer: f.ben).redemption
            #expect(forKid.memberID == kid && forKid.requestedBy == f.benMember)
            let forAna = await #expect(throws: ServiceError.self) {
                try await f.tokens.redeemReward(rewardID: rewardID, memberID: f.anaMember, viewer: f.ben)
            }
            #expect(forAna?.code == .forbidden)
            #expect(try await f.tokens.redeemReward(rewardID: rewardID, memberID: f.benMember, viewer: f.ana).redemption.requestedBy == f.anaMember)
            let otherHousehold = await #expect(throws: ServiceError.self) {
                try await f.tokens.redeemReward(rewardID: rewardID, memberID: f.eveMember, viewer: f.ana)
            }
            #expect(otherHousehold == .memberNotFound)
            // Ben sees the requests for him and those he made; Ana every one.
            #expect(try await f.tokens.redemptions(f.access(f.ben)).totalCount == 2)
            #expect(try await f.tokens.redemptions(f.access(f.ana)).totalCount == 2)
            let approve = await #expect(throws: ServiceError.self) { try await f.tokens.approveRedemption(id: forKid.id, viewer: f.ben) }
            #expect(approve?.code == .forbidden)
            let outsider = await #expect(throws: ServiceError.self) { try await f.tokens.approveRedemption(id: forKid.id, viewer: f.eve) }
            #expect(outsider == .redemptionNotFound)
        }
    }

    /// Donetick's issue #489: two redemptions raced past the balance check. Here many requests
    /// arrive at once, from members with enough for a few; none may overdraw, and the stock may
    /// not go below zero.
    @Test func concurrentRequestsNeverOverdrawABalanceOrTheStock() async throws {
        try await TokensFixture.with(configure: { $0.maximumPendingRedemptionsPerMember = 100 }) { f in
            try await f.give(100, to: f.benMember)
            let kid = try await f.shadow("Kid")
            try await f.give(1_000, to: kid)
            let pricey = try await reward(f, cost: 30)
            let scarce = try await reward(f, cost: 1, stock: 7)
            let outcomes = try await withThrowingTaskGroup(of: (String, ServiceError.Reason?).self) { group in
                for index in 0..<60 {
                    let (rewardID, memberID) = index % 2 == 0 ? (pricey, f.benMember) : (scarce, kid)
                    group.addTask {
                        do {
                            _ = try await f.tokens.redeemReward(rewardID: rewardID, memberID: memberID, viewer: f.ana)
                            return (rewardID, nil)
                        } catch let error as ServiceError where error.code == .conflict {
                            return (rewardID, error.reason)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == (pricey, nil) }.count == 3)
            #expect(outcomes.filter { $0 == (pricey, .insufficientTokens) }.count == 27)
            #expect(outcomes.filter { $0 == (scarce, nil) }.count == 7)
            #expect(outcomes.filter { $0 == (scarce, .outOfStock) }.count == 23)
            #expect(try f.storedBalance(f.benMember) == 10 && f.ledgerSum(f.benMember) == 10)
            #expect(try f.storedBalance(kid) == 993 && f.h.sqlText("SELECT stock FROM rewards WHERE id = '\(scarce)'") == "0")
        }
    }

    @Test func ofTwoAdminsDecidingAtOnceOneWins() async throws {
        try await TokensFixture.with { f in
            try await f.give(10, to: f.benMember)
            let redemption = try await f.tokens.redeemReward(rewardID: try await reward(f, cost: 10, stock: 1), viewer: f.ben).redemption
            let decided = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        do {
                            if index % 2 == 0 {
                                _ = try await f.tokens.approveRedemption(id: redemption.id, viewer: f.ana)
                            } else {
                                _ = try await f.tokens.rejectRedemption(id: redemption.id, reason: nil, viewer: f.ana)
                            }
                            return true
                        } catch let error as ServiceError where error.reason == .alreadyReviewed {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(decided == 1)
            let status = try f.h.sqlText("SELECT status FROM reward_redemptions")
            #expect(try f.storedBalance(f.benMember) == (status == "approved" ? 0 : 10))
            #expect(try f.h.sqlText("SELECT stock FROM rewards") == (status == "approved" ? "0" : "1"))
            #expect(try f.h.sqlText("SELECT count(*) FROM token_ledger WHERE redemption_id IS NOT NULL") == "2")
        }
    }
}
