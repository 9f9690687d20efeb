import GraphQL
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Household screens kept as text while nothing commits (`HouseholdTextCache`): never for a
/// selection reaching beyond the fields such text may hold, nor without bytes for text. (That a
/// repeated screen is its kept text until the next commit, and each viewer's own:
/// `HouseholdKeptReadsTests`.)
@Suite struct HouseholdTextCacheTests {
    static let home = HouseholdKeptReadsTests.home

    /// Runs `query` as `viewer`, which must answer without errors.
    private func run(
        _ fixture: HouseholdsAPIFixture, _ query: String, _ variables: [String: JSON] = [:], as viewer: Viewer
    ) async throws -> ExecutionResult {
        let result = try await fixture.execute(query, variables, as: viewer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return result
    }

    /// Invitations expire with the clock and a member's account is another service's: a screen
    /// selecting them is completed every time (its reads are still kept).
    @Test func aSelectionReachingBeyondTheKeptFieldsIsCompletedEveryTime() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let id: [String: JSON] = ["id": .string(flat)]
            let screens: [(String, [String: JSON])] = [
                ("{ activeHousehold { name invitations { id } } }", [:]),
                ("{ activeHousehold { name members(first: 5) { edges { node { displayName user { id } } } } } }", [:]),
                ("query($id: ID!) { household(id: $id) { name tags { id } } }", id),
                ("{ households { name viewerMember { user { id } } } }", [:]),
            ]
            for (query, variables) in screens {
                for _ in 0..<3 { #expect(try await run(fixture, query, variables, as: ana).framedValue == nil, "\(query)") }
            }
        }
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark"))
    func noBytesForTextKeepsNone() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptTextBytes = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            _ = try await fixture.household("Flat", by: ana)
            for _ in 0..<3 { #expect(try await run(fixture, Self.home, as: ana).framedValue == nil) }
        }
    }
}
