import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// `node`/`nodes` for chores, tags and presets (``ChoreService/nodes(ids:viewer:)``): the viewer's
/// own and their active households' objects, with the access each grants, and nothing else.
struct ChoreNodeTests {
    @Test func theViewerFindsTheirHouseholdsAndPersonalObjectsAndNothingOfOthersOrDeletedOrOfAHouseholdTheyLeft() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let dishes = try await h.chore("Dishes", in: f.householdID, by: f.admin)
            let gone = try await h.chore("Gone", in: f.householdID, by: f.admin)
            _ = try await h.chores.deleteChore(id: gone.id, viewer: f.admin)
            let run = try await h.chore("Run", in: nil, by: f.admin)
            let bensRun = try await h.chore("Ben's run", in: nil, by: f.member)
            let evesChore = try await h.chore("Eve's", in: f.outsiderHouseholdID, by: f.outsider)
            let kitchen = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", viewer: f.admin).tag
            let mine = try await h.chores.createTag(householdID: nil, name: "Mine", viewer: f.admin).tag
            let evesTag = try await h.chores.createTag(householdID: f.outsiderHouseholdID, name: "Eve's", viewer: f.outsider).tag
            let saved = try await h.chores.saveChorePreset(choreID: dishes.id, viewer: f.admin)
            let evesPreset = try await h.chores.saveChorePreset(choreID: evesChore.id, viewer: f.outsider)
            let builtIn = try #require(BuiltInPresets.all.first)
            let ids = [
                dishes.id, gone.id, run.id, bensRun.id, evesChore.id, kitchen.id, mine.id, evesTag.id, saved.id, evesPreset.id, builtIn.id,
                f.adminMemberID, "chr_01900000-0000-7000-8000-000000000000",
            ]

            let found = try await h.chores.nodes(ids: ids + ids, viewer: f.admin)
            #expect(Set(found.keys) == [dishes.id, run.id, kitchen.id, mine.id, saved.id, builtIn.id])
            guard case .chore(let chore, let access)? = found[dishes.id], case .chore(_, let personal)? = found[run.id],
                  case .tag(_, let tagAccess)? = found[kitchen.id], case .preset(let preset)? = found[saved.id]
            else {
                Issue.record("not the expected nodes: \(found)")
                return
            }
            #expect(chore.title == "Dishes" && access.household?.householdID == f.householdID && access.isManager)
            #expect(personal.isPersonal && tagAccess.household?.householdID == f.householdID && preset.title == "Dishes")

            let member = try await h.chores.nodes(ids: ids, viewer: f.member)
            #expect(Set(member.keys) == [dishes.id, bensRun.id, kitchen.id, saved.id, builtIn.id])
            if case .chore(_, let bensAccess)? = member[dishes.id] { #expect(!bensAccess.isManager) }
            _ = try await h.service.leaveHousehold(id: f.householdID, incompleteTasks: .unassign, viewer: f.member)
            #expect(Set(try await h.chores.nodes(ids: ids, viewer: f.member).keys) == [bensRun.id, builtIn.id])
        }
    }

    /// One statement per type asked for (chores, tags, saved presets) and one access check per
    /// household found, however many ids: not one check and one read per id.
    @Test func manyIdsCostOneStatementPerTypeAndOneCheckPerHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            var ids: [String] = []
            for number in 1...6 {
                let chore = try await h.chore("Chore \(number)", in: f.householdID, by: f.admin)
                ids.append(chore.id)
                ids.append(try await h.chores.createTag(householdID: f.householdID, name: "Tag \(number)", viewer: f.admin).tag.id)
                ids.append(try await h.chores.saveChorePreset(choreID: chore.id, viewer: f.admin).id)
            }
            let cost = try await statements(on: h.pool) { () async throws in
                #expect(try await h.chores.nodes(ids: ids, viewer: f.admin).count == 18)
            }
            #expect(cost == 4, "chores, tags, presets, and Flat's access check")
        }
    }

}
