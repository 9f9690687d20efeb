import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The rewards store: admins define rewards with prices, stock and the members they are for.
struct RewardTests {
    @Test func anAdminCreatesARewardForSomeMembersWithTheirOwnPrices() async throws {
        try await TokensFixture.with { f in
            let kid = try await f.shadow("Kid")
            let (reward, _) = try await f.tokens.createReward(
                householdID: f.householdID,
                RewardDraft(
                    name: " Cinema trip ", description: "With a parent", tokenCost: 50, stock: 3, eligibleMemberIDs: [kid, f.benMember, kid],
                    memberPrices: [kid: 30]),
                viewer: f.ana)
            #expect(reward.id.hasPrefix("rwd_") && reward.name == "Cinema trip" && reward.stock == 3)
            #expect(reward.eligibleMemberIDs == [kid, f.benMember].sorted() && reward.memberPrices == [kid: 30])
            #expect(reward.price(for: kid) == 30 && reward.price(for: f.benMember) == 50 && reward.price(for: f.anaMember) == nil)
            #expect(try await f.tokens.rewards(f.access(f.ben)).map(\.id) == [reward.id])
            #expect(try f.h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "reward.created")
        }
    }

    @Test func editingChangesWhatIsGivenAndKeepsPricesOfMembersItIsStillFor() async throws {
        try await TokensFixture.with { f in
            let kid = try await f.shadow("Kid")
            let (reward, _) = try await f.tokens.createReward(
                householdID: f.householdID,
                RewardDraft(name: "Ice cream", tokenCost: 10, eligibleMemberIDs: [kid, f.benMember], memberPrices: [kid: 5, f.benMember: 8]),
                viewer: f.ana)
            let narrowed = try await f.tokens.updateReward(id: reward.id, RewardChanges(eligibleMemberIDs: .some([kid])), viewer: f.ana).reward
            #expect(narrowed.eligibleMemberIDs == [kid] && narrowed.memberPrices == [kid: 5] && narrowed.name == "Ice cream")
            let opened = try await f.tokens.updateReward(
                id: reward.id, RewardChanges(description: .some("Two scoops"), stock: .some(2), eligibleMemberIDs: .some(nil)), viewer: f.ana).reward
            #expect(opened.eligibleMemberIDs == nil && opened.price(for: f.anaMember) == 10 && opened.price(for: kid) == 5 && opened.stock == 2)
            let unlimited = try await f.tokens.updateReward(
                id: reward.id, RewardChanges(tokenCost: 12, stock: .some(nil), memberPrices: [:]), viewer: f.ana).reward
            #expect(unlimited.stock == nil && unlimited.memberPrices.isEmpty && unlimited.price(for: kid) == 12 && unlimited.description == "Two scoops")
        }
    }

    @Test func everyInputProblemIsReportedAtOnceAndTheLimitsAreExact() async throws {
        try await TokensFixture.with(configure: { $0.maximumTokenAmount = 100; $0.maximumRewardStock = 5 }) { f in
            let edge = try await f.tokens.createReward(
                householdID: f.householdID, RewardDraft(name: "Edge", tokenCost: 100, stock: 5, memberPrices: [f.benMember: 100]), viewer: f.ana)
            #expect(edge.reward.tokenCost == 100 && edge.reward.stock == 5)
            #expect(try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Free", tokenCost: 0, stock: 0), viewer: f.ana)
                .reward.tokenCost == 0)
            let refused = await #expect(throws: ServiceError.self) {
                try await f.tokens.createReward(
                    householdID: f.householdID,
                    RewardDraft(
                        name: "", description: "a\nb", tokenCost: 101, stock: 6, eligibleMemberIDs: [f.anaMember],
                        memberPrices: [f.benMember: 101]),
                    viewer: f.ana)
            }
            #expect(refused?.problems.map(\.field) == [
                "input.name", "input.description", "input.tokenCost", "input.stock", "input.memberPrices", "input.memberPrices",
            ])
            #expect(refused?.problems.map(\.reason) == [.required, .invalidFormat, .outOfRange, .outOfRange, .outOfRange, .notAllowed])
            let negative = await #expect(throws: ServiceError.self) {
                try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Neg", tokenCost: -1, stock: -1), viewer: f.ana)
            }
            #expect(negative?.problems.map(\.field) == ["input.tokenCost", "input.stock"])
            #expect(try f.h.sqlText("SELECT count(*) FROM rewards") == "2")
        }
    }

    @Test func membersNamedMustBeActiveMembersOfTheHousehold() async throws {
        try await TokensFixture.with { f in
            let teen = try await f.shadow("Teen")
            _ = try await f.h.service.removeMember(id: teen, incompleteTasks: .unassign, viewer: f.ana)
            for (eligible, prices) in [([f.eveMember], [:]), ([], [f.eveMember: 3]), ([teen], [:]), (["mem_01900000-0000-7000-8000-000000000000"], [:])] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await f.tokens.createReward(
                        householdID: f.householdID,
                        RewardDraft(name: "Guess", tokenCost: 1, eligibleMemberIDs: eligible.isEmpty ? nil : eligible, memberPrices: prices),
                        viewer: f.ana)
                }
                #expect(refused?.problems.first?.reason == .unknownValue, "\(eligible) \(prices)")
            }
            #expect(try f.h.sqlText("SELECT count(*) FROM rewards") == "0")
        }
    }

    @Test func aHouseholdOffersAtMostTheConfiguredNumberOfRewardsDeletedOnesNotCounted() async throws {
        try await TokensFixture.with(configure: { $0.maximumRewardsPerHousehold = 2 }) { f in
            let first = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "One", tokenCost: 1), viewer: f.ana).reward
            _ = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Two", tokenCost: 1), viewer: f.ana)
            let third = await #expect(throws: ServiceError.self) {
                try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Three", tokenCost: 1), viewer: f.ana)
            }
            #expect(third?.code == .conflict && third?.reason == .limitReached)
            #expect(try await f.tokens.deleteReward(id: first.id, viewer: f.ana) == first.id)
            _ = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Three", tokenCost: 1), viewer: f.ana)
        }
    }

    @Test func aDeletedRewardLeavesTheStoreButStaysReadableByItsId() async throws {
        try await TokensFixture.with { f in
            let reward = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Gone", tokenCost: 1), viewer: f.ana).reward
            _ = try await f.tokens.deleteReward(id: reward.id, viewer: f.ana)
            #expect(try await f.tokens.rewards(f.access(f.ana)).isEmpty)
            #expect(try await f.tokens.reward(id: reward.id, f.access(f.ben)).deletedAt != nil)
            for attempt in [
                { _ = try await f.tokens.deleteReward(id: reward.id, viewer: f.ana) },
                { _ = try await f.tokens.updateReward(id: reward.id, RewardChanges(name: "Back"), viewer: f.ana) },
                { _ = try await f.tokens.redeemReward(rewardID: reward.id, viewer: f.ben) },
            ] {
                let refused = await #expect(throws: ServiceError.self) { try await attempt() }
                #expect(refused?.code == .notFound && refused?.reason == .deleted, "deletes win over later changes (issue 17)")
            }
        }
    }

    @Test func onlyAdminsManageRewardsAndOutsidersSeeNone() async throws {
        try await TokensFixture.with { f in
            let reward = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Mine", tokenCost: 1), viewer: f.ana).reward
            for attempt in [
                { _ = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "X", tokenCost: 1), viewer: f.ben) },
                { _ = try await f.tokens.updateReward(id: reward.id, RewardChanges(name: "X"), viewer: f.ben) },
                { _ = try await f.tokens.deleteReward(id: reward.id, viewer: f.ben) },
            ] {
                let refused = await #expect(throws: ServiceError.self) { try await attempt() }
                #expect(refused?.code == .forbidden)
            }
            let outsider = await #expect(throws: ServiceError.self) {
                try await f.tokens.updateReward(id: reward.id, RewardChanges(name: "X"), viewer: f.eve)
            }
            #expect(outsider == .rewardNotFound)
            #expect(try await f.tokens.nodes(ids: [reward.id], viewer: f.eve).isEmpty)
            #expect(try await f.tokens.nodes(ids: [reward.id], viewer: f.ben).count == 1)
        }
    }
}
