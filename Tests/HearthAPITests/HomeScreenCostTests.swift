import GraphQL
import HearthServices
import Testing

/// What the home screen (the active household, its members and their accounts) costs in SQL
/// statements through the API, counted by the pool: the same for two members as for six, so a
/// resolver that reads per member (N + 1) fails here. Counts, not timings.
@Suite struct HomeScreenCostTests {
    static let home = """
        {
          activeHousehold {
            id name viewerMember { id }
            members(first: 20) { totalCount edges { node { id displayName isViewer user { username displayName } } } }
          }
        }
        """

    /// Runs the home screen as `viewer` after a commit (which empties the accounts cache, so every
    /// member's account is read); returns the statements it took and the members' usernames.
    private func home(_ fixture: HouseholdsAPIFixture, as viewer: Viewer) async throws -> (statements: Int, usernames: [String]) {
        let pool = fixture.harness.pool
        try await pool.write { db in try db.execute("CREATE TABLE IF NOT EXISTS cache_breaker (x)") }
        let before = pool.statistics.readers.statements + pool.statistics.writer.statements
        let result = try await fixture.execute(Self.home, as: viewer)
        let statements = pool.statistics.readers.statements + pool.statistics.writer.statements - before
        #expect(result.errors.isEmpty, "\(result.errors)")
        guard case .array(let edges)? = result.data?["activeHousehold"]?["members"]?["edges"] else { return (statements, []) }
        let usernames = edges.compactMap { edge -> String? in
            if case .string(let name)? = edge["node"]?["user"]?["username"] { return name }
            return nil
        }
        return (statements, usernames)
    }

    @Test func theHomeScreenReadsTheSameStatementsForTwoMembersAsForSix() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await fixture.join(flat, try await fixture.person("bruno"), as: "Bruno")
            let two = try await home(fixture, as: ana)
            for name in ["carla", "duarte", "eva", "filipe"] {
                _ = try await fixture.join(flat, try await fixture.person(name), as: name.capitalized)
            }
            let six = try await home(fixture, as: ana)
            #expect(Set(two.usernames) == ["ana", "bruno"])
            #expect(Set(six.usernames) == ["ana", "bruno", "carla", "duarte", "eva", "filipe"])
            #expect(two.statements == six.statements, "the members' accounts are read for the page at once")
        }
    }
}
