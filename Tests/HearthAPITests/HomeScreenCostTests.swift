import GraphQL
import HearthServices
import TestFixtures
import Testing

/// What the home screen (the active household, its members and their accounts) costs in SQL
/// statements through the API, counted by the pool: the same for two members as for six, so a
/// resolver that reads per member (N + 1) fails here. Counts, not timings. With the household
/// cache off, so that every request reads (what a kept read costs: `HouseholdKeptReadsTests`).
@Suite struct HomeScreenCostTests {
    static let home = """
        {
          activeHousehold {
            id name viewerMember { id }
            members(first: 20) { totalCount edges { node { id displayName isViewer user { username displayName } } } }
          }
        }
        """

    /// Runs the home screen as `viewer` after a commit to the accounts (which empties the accounts'
    /// cache, so every member's account is read); returns the statements it took and the members'
    /// usernames.
    private func home(_ fixture: HouseholdsAPIFixture, as viewer: Viewer) async throws -> (statements: Int, usernames: [String]) {
        let pool = fixture.harness.pool
        try await pool.write { db in try db.execute("UPDATE users SET username = username") }
        let before = try StoreStatistics.statements(of: pool)
        let result = try await fixture.execute(Self.home, as: viewer)
        let statements = try StoreStatistics.statements(of: pool) - before
        #expect(result.errors.isEmpty, "\(result.errors)")
        guard case .array(let edges)? = result.data?["activeHousehold"]?["members"]?["edges"] else { return (statements, []) }
        let usernames = edges.compactMap { edge -> String? in
            if case .string(let name)? = edge["node"]?["user"]?["username"] { return name }
            return nil
        }
        return (statements, usernames)
    }

    @Test func theHomeScreenReadsTheSameStatementsForTwoMembersAsForSix() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
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

    /// The read transactions (reader connections lent) and the result of `query` as `viewer`.
    private func transactions(_ fixture: HouseholdsAPIFixture, _ query: String, as viewer: Viewer) async throws -> (Int, ExecutionResult) {
        let pool = fixture.harness.pool
        let before = try StoreStatistics.lendings(of: pool)
        let result = try await fixture.execute(query, as: viewer)
        return (try StoreStatistics.lendings(of: pool) - before, result)
    }

    @Test func theHomeScreenReadsTheHouseholdAndItsMembersPageInOneReadTransaction() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await fixture.join(flat, try await fixture.person("bruno"), as: "Bruno")
            let members = "members(first: 1) { totalCount pageInfo { hasNextPage } edges { node { displayName role } } }"
            // Once to fill the caches the joining emptied, then counted.
            _ = try await transactions(fixture, "{ activeHousehold { name } }", as: ana)
            let (alone, _) = try await transactions(fixture, "{ activeHousehold { name } }", as: ana)
            let (together, home) = try await transactions(fixture, "{ activeHousehold { name \(members) } }", as: ana)
            #expect(together == alone)
            #expect(home.errors.isEmpty, "\(home.errors)")
            // Two pages selected: each read on its own, with the same result.
            let (apart, twice) = try await transactions(fixture, "{ activeHousehold { name \(members) again: \(members) } }", as: ana)
            #expect(apart == alone + 2)
            #expect(twice.data?["activeHousehold"]?["members"] == home.data?["activeHousehold"]?["members"])
            #expect(twice.data?["activeHousehold"]?["again"] == home.data?["activeHousehold"]?["members"])
            #expect(home.data?["activeHousehold"]?["members"]?["totalCount"] == .int(2))
            #expect(home.data?["activeHousehold"]?["members"]?["pageInfo"]?["hasNextPage"] == .bool(true))
        }
    }

    @Test func membersArgumentsThatDoNotCheckAreStillTheMembersFieldsError() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            _ = try await fixture.household("Flat", by: ana)
            let result = try await fixture.execute("{ activeHousehold { name members(first: 101) { totalCount } } }", as: ana)
            // `members` is non-null: its error nulls the household.
            #expect(result.data?["activeHousehold"] == .null)
            #expect(result.errors.map(\.path) == [[.key("activeHousehold"), .key("members")]])
            #expect(result.errors.first?.extensions["code"] == .string("BAD_USER_INPUT"))
        }
    }
}
