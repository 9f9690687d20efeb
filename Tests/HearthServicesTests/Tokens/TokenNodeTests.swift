import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// `node`/`nodes` for rewards, requests and ledger entries (``TokenService/nodes(ids:viewer:)``):
/// what the viewer may see of their households' token economy, and nothing of others'.
struct TokenNodeTests {
    /// Flat's rewards (one restricted to ben at a price of his own), ben's bonus and a request of
    /// his, kim's bonus and a request of hers; with the ids of the requests and ledger entries.
    private static func economy(_ f: TokensFixture) async throws -> (rewards: [RewardRecord], redemptions: [String], entries: [String: String]) {
        let treat = try await f.tokens.createReward(householdID: f.householdID, RewardDraft(name: "Treat", tokenCost: 2), viewer: f.ana).reward
        let film = try await f.tokens.createReward(
            householdID: f.householdID, RewardDraft(name: "Film", tokenCost: 5, eligibleMemberIDs: [f.benMember], memberPrices: [f.benMember: 3]),
            viewer: f.ana).reward
        try await f.give(10, to: f.benMember)
        try await f.give(10, to: f.kimMember)
        let bens = try await f.tokens.redeemReward(rewardID: film.id, viewer: f.ben).redemption
        let kims = try await f.tokens.redeemReward(rewardID: treat.id, viewer: f.kim).redemption
        let entries = try await f.h.pool.read { database in
            try database.query("SELECT id, member_id FROM token_ledger ORDER BY id").reduce(into: [String: String]()) { entries, row in
                entries[try row["id"]] = try row["member_id"]
            }
        }
        return ([treat, film], [bens.id, kims.id], entries)
    }

    @Test func adminsSeeEveryObjectMembersTheirOwnTokensAndOutsidersNothing() async throws {
        try await TokensFixture.with { f in
            let (rewards, redemptions, entries) = try await Self.economy(f)
            let ids = rewards.map(\.id) + redemptions + entries.keys + [f.benMember, "rwd_01900000-0000-7000-8000-000000000000"]

            let all = try await f.tokens.nodes(ids: ids + ids, viewer: f.ana)
            #expect(Set(all.keys) == Set(rewards.map(\.id) + redemptions + entries.keys))
            guard case .reward(let film, let access)? = all[rewards[1].id] else {
                Issue.record("no film in \(all)")
                return
            }
            #expect(film == rewards[1] && film.memberPrices == [f.benMember: 3] && access.householdID == f.householdID && access.isAdmin)

            let bensEntries = entries.filter { $0.value == f.benMember }.map(\.key)
            #expect(bensEntries.count == 2, "his bonus and his hold")
            let bens = try await f.tokens.nodes(ids: ids, viewer: f.ben)
            #expect(Set(bens.keys) == Set(rewards.map(\.id) + [redemptions[0]] + bensEntries))
            if case .redemption(let request, let bensAccess)? = bens[redemptions[0]] {
                #expect(request.memberID == f.benMember && bensAccess.memberID == f.benMember)
            } else {
                Issue.record("no request of ben's in \(bens)")
            }
            #expect(try await f.tokens.nodes(ids: ids, viewer: f.eve).isEmpty)
        }
    }

    /// One statement per table asked for (rewards with their members' prices, requests, ledger
    /// entries) and one access check per household found, however many ids: not one check and
    /// one read per id.
    @Test func manyIdsCostOneStatementPerTableAndOneCheckPerHousehold() async throws {
        try await TokensFixture.with { f in
            let (rewards, redemptions, entries) = try await Self.economy(f)
            var ids = rewards.map(\.id) + redemptions + entries.keys
            for number in 1...4 {
                let reward = try await f.tokens.createReward(
                    householdID: f.householdID, RewardDraft(name: "Reward \(number)", tokenCost: 1), viewer: f.ana).reward
                ids.append(reward.id)
                ids.append(try await f.tokens.redeemReward(rewardID: reward.id, viewer: f.ben).redemption.id)
            }
            let holds = try await f.h.pool.read { try $0.query("SELECT id FROM token_ledger").map { try $0["id"] as String } }
            ids = Array(Set(ids + holds))
            #expect(ids.count == 20)
            let cost = try await statements(on: f.h.pool) { () async throws in
                #expect(try await f.tokens.nodes(ids: ids, viewer: f.ana).count == 20)
            }
            #expect(cost == 5, "rewards, their members' prices, requests, ledger entries, and Flat's access check")
        }
    }
}
