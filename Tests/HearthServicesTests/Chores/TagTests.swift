import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-46 – FR-48: tags of households and of personal chores; filtering by several tags.
struct TagTests {
    @Test func aTagNameIsOneToThirtyTwoCharactersOfOneLine() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let longest = try await h.chores.createTag(householdID: f.householdID, name: String(repeating: "t", count: 32), viewer: f.admin).tag
            #expect(longest.name.count == 32)
            for (name, reason) in [("", FieldProblem.Reason.required), (String(repeating: "t", count: 33), .tooLong), ("a\nb", .invalidFormat)] {
                let refused = await h.refusal { try await h.chores.createTag(householdID: f.householdID, name: name, viewer: f.admin) }
                #expect(refused?.code == .badUserInput && refused?.problems.first?.field == "input.name" && refused?.problems.first?.reason == reason)
            }
            let renamed = await h.refusal { try await h.chores.updateTag(id: longest.id, name: String(repeating: "u", count: 33), viewer: f.admin) }
            #expect(renamed?.problems.first?.reason == .tooLong)
        }
    }

    @Test func namesAreUniquePerOwnerWhateverTheirCase() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let kitchen = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", viewer: f.admin).tag
            let taken = await h.refusal { try await h.chores.createTag(householdID: f.householdID, name: "KITCHEN", viewer: f.admin) }
            #expect(taken?.code == .conflict && taken?.problems.first?.reason == .taken)
            // Another owner may use it: a personal tag, another household's.
            _ = try await h.chores.createTag(householdID: nil, name: "Kitchen", viewer: f.admin)
            _ = try await h.chores.createTag(householdID: f.outsiderHouseholdID, name: "Kitchen", viewer: f.outsider)
            // Renaming to its own name in another case is allowed.
            #expect(try await h.chores.updateTag(id: kitchen.id, name: "kitchen", viewer: f.admin).tag.name == "kitchen")
        }
    }

    @Test func adminsManageHouseholdTagsMembersReadThemAndEveryoneManagesTheirOwn() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let tag = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", color: "#AABBCC", viewer: f.admin).tag
            #expect(tag.color == "#aabbcc" && GlobalID(rawValue: tag.id)?.kind == .tag)
            for viewer in [f.member, f.child] {
                #expect(await h.refusal { try await h.chores.createTag(householdID: f.householdID, name: "Mine", viewer: viewer) }?.reason == .adminsOnly)
                #expect(await h.refusal { try await h.chores.updateTag(id: tag.id, name: "Mine", viewer: viewer) }?.reason == .adminsOnly)
                #expect(await h.refusal { try await h.chores.deleteTag(id: tag.id, viewer: viewer) }?.reason == .adminsOnly)
                #expect(try await h.chores.tags(householdID: f.householdID, viewer: viewer).tags.map(\.name) == ["Kitchen"])
            }
            #expect(await h.refusal { try await h.chores.updateTag(id: tag.id, name: "Mine", viewer: f.outsider) } == .tagNotFound)
            #expect(await h.refusal { try await h.chores.tags(householdID: f.householdID, viewer: f.outsider) } == .householdNotFound)
            let mine = try await h.chores.createTag(householdID: nil, name: "Running", viewer: f.child).tag
            #expect(try await h.chores.tags(householdID: nil, viewer: f.child).tags.map(\.id) == [mine.id])
            #expect(try await h.chores.tags(householdID: nil, viewer: f.member).tags.isEmpty)
            #expect(await h.refusal { try await h.chores.deleteTag(id: mine.id, viewer: f.admin) } == .tagNotFound)
            let recoloured = try await h.chores.updateTag(id: tag.id, color: .some(nil), viewer: f.admin).tag
            #expect(recoloured.color == nil && recoloured.name == "Kitchen")
        }
    }

    @Test func deletingATagRemovesItFromItsChoresButKeepsTheChores() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let kitchen = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", viewer: f.admin).tag
            let daily = try await h.chores.createTag(householdID: f.householdID, name: "Daily", viewer: f.admin).tag
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin) { $0.tagIDs = [kitchen.id, daily.id] }
            #expect(try await h.chores.deleteTag(id: kitchen.id, viewer: f.admin) == kitchen.id)
            let access = try await h.chores.chore(id: chore.id, viewer: f.admin).access
            #expect(try await h.chores.tags(of: [chore.id], access: access)[chore.id]?.map(\.id) == [daily.id])
            #expect(try h.sqlText("SELECT count(*) FROM chores") == "1")
            #expect(try h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "tag.deleted")
        }
    }

    @Test func filteringBySeveralTagsListsTheChoresCarryingAllOfThem() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let kitchen = try await h.chores.createTag(householdID: f.householdID, name: "Kitchen", viewer: f.admin).tag.id
            let daily = try await h.chores.createTag(householdID: f.householdID, name: "Daily", viewer: f.admin).tag.id
            try await h.chore("Dishes", in: f.householdID, by: f.admin) { $0.tagIDs = [kitchen, daily] }
            try await h.chore("Oven", in: f.householdID, by: f.admin) { $0.tagIDs = [kitchen] }
            try await h.chore("Bed", in: f.householdID, by: f.admin) { $0.tagIDs = [daily] }
            func titles(_ tags: [String]) async throws -> [String] {
                try await h.chores.chores(householdID: f.householdID, filter: ChoreFilter(tagIDs: tags), viewer: f.member).edges.map(\.chore.title)
            }
            #expect(try await titles([kitchen]) == ["Dishes", "Oven"])
            #expect(try await titles([kitchen, daily]) == ["Dishes"])
            #expect(try await titles([daily]) == ["Bed", "Dishes"])
            #expect(try await titles([]) == ["Bed", "Dishes", "Oven"])
        }
    }

    @Test func theTagsLimitHoldsAtItsEdge() async throws {
        try await HouseholdsHarness.with(configureChores: { $0.maximumTagsPerOwner = 2 }) { h in
            let f = try await h.choreFamily()
            _ = try await h.chores.createTag(householdID: f.householdID, name: "One", viewer: f.admin)
            _ = try await h.chores.createTag(householdID: f.householdID, name: "Two", viewer: f.admin)
            let third = await h.refusal { try await h.chores.createTag(householdID: f.householdID, name: "Three", viewer: f.admin) }
            #expect(third?.code == .conflict && third?.reason == .limitReached)
        }
    }
}
