import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-55 (definitions): a household's chores, and one's personal chores, by title, paged and filtered.
struct ChoreListTests {
    @Test func choresAreListedByTitleInPagesThatFollowEachOther() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            for title in ["b", "A", "c", "a", "D"] { try await h.chore(title, in: f.householdID, by: f.admin) }
            try await h.chore("Mine", in: nil, by: f.admin)
            let first = try await h.chores.chores(householdID: f.householdID, first: 2, viewer: f.child)
            #expect(first.edges.map { $0.chore.title.lowercased() } == ["a", "a"] && first.hasNextPage && !first.hasPreviousPage && first.totalCount == 5)
            let rest = try await h.chores.chores(householdID: f.householdID, first: 10, after: first.endCursor, viewer: f.child)
            #expect(rest.edges.map(\.chore.title) == ["b", "c", "D"] && !rest.hasNextPage && rest.hasPreviousPage)
            #expect(try await h.chores.chores(householdID: nil, viewer: f.admin).edges.map(\.chore.title) == ["Mine"])
            #expect(try await h.chores.chores(householdID: f.householdID, first: 0, viewer: f.child).edges.isEmpty)
        }
    }

    @Test func firstAndTheCursorAreChecked() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            for first in [-1, 101] {
                #expect(await h.refusal { try await h.chores.chores(householdID: f.householdID, first: first, viewer: f.admin) }?.problems.first?.field == "first")
            }
            #expect(try await h.chores.chores(householdID: f.householdID, first: 100, viewer: f.admin).edges.isEmpty)
            #expect(await h.refusal { try await h.chores.chores(householdID: f.householdID, after: "bm9wZQ", viewer: f.admin) }?.problems.first?.field == "after")
        }
    }

    @Test func theModeFilterKeepsChoresOfTheModesGiven() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            try await h.chore("Everyone", in: f.householdID, by: f.admin) { $0.assignmentMode = .allMembers }
            try await h.chore("Shared", in: f.householdID, by: f.admin)
            try await h.chore("Ben's", in: f.householdID, by: f.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [f.memberID]
            }
            let filtered = try await h.chores.chores(
                householdID: f.householdID, filter: ChoreFilter(assignmentModes: [.individual, .allMembers]), viewer: f.admin)
            #expect(filtered.edges.map(\.chore.title) == ["Ben's", "Everyone"] && filtered.totalCount == 2)
        }
    }
}
