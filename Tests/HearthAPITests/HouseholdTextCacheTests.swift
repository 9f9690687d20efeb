import GraphQL
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Household screens kept as text while nothing commits (`HouseholdTextCache`): a repeated
/// screen is the text the first one completed, written back whole (a framed response); a commit,
/// or a selection reaching beyond the fields such text may hold, completes it afresh.
@Suite struct HouseholdTextCacheTests {
    static let (home, switcher, economy) = (HouseholdKeptReadsTests.home, HouseholdKeptReadsTests.switcher, HouseholdKeptReadsTests.economy)
    /// The checklist with the household's name, which a rename changes.
    static let checklist = "query($id: ID!) { household(id: $id) { name onboarding { isComplete nextStep steps { step state isRequired } } } }"

    /// Runs `query` as `viewer`, which must answer without errors.
    private func run(
        _ fixture: HouseholdsAPIFixture, _ query: String, _ variables: [String: JSON] = [:], as viewer: Viewer
    ) async throws -> ExecutionResult {
        let result = try await fixture.execute(query, variables, as: viewer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return result
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark (PostgreSQL gives none: nothing is kept)"))
    func eachScreenIsWrittenBackFromItsTextUntilTheNextCommit() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let id: [String: JSON] = ["id": .string(flat)]
            for (query, variables) in [(Self.home, [:]), (Self.switcher, [:]), (Self.economy, id), (Self.checklist, id)] {
                _ = try await fixture.harness.service.updateHousehold(id: flat, .init(name: "Flat \(query.count)"), viewer: ana)
                let first = try await run(fixture, query, variables, as: ana)
                #expect(first.framedValue == nil, "\(query): completed afresh after the commit")
                let kept = try #require(try await run(fixture, query, variables, as: ana).framedValue, "\(query): the kept text")
                let again = try await run(fixture, query, variables, as: ana)
                #expect(again.framedValue?.value === kept.value, "\(query): the same text again")
                #expect(again.data == first.data)
                _ = try await fixture.harness.service.updateHousehold(id: flat, .init(name: "Renamed \(query.count)"), viewer: ana)
                let after = try await run(fixture, query, variables, as: ana)
                #expect(after.framedValue == nil, "\(query): completed afresh after the next commit")
                #expect(after.data != first.data, "\(query): the new name shows")
            }
        }
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "SQLite's change mark"))
    func eachViewerHasTheirOwnText() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, anaMember) = try await fixture.household("Flat", by: ana)
            let bruno = try await fixture.person("bruno")
            let brunoMember = try await fixture.join(flat, bruno, as: "Bruno")
            _ = try await fixture.harness.service.addMember(householdID: flat, .init(kind: .shadow, displayName: "Avó", age: 78), viewer: ana)
            for _ in 0..<3 {
                for (viewer, member, seesAges) in [(ana, anaMember, true), (bruno, brunoMember, false)] {
                    let home = try await run(fixture, Self.home, as: viewer).data?["activeHousehold"]
                    #expect(home?["viewerMember"]?["id"] == .string(member))
                    guard case .array(let edges)? = home?["members"]?["edges"] else { Issue.record("no members"); continue }
                    let nodes = edges.compactMap { $0["node"] }
                    #expect(nodes.filter { $0["isViewer"] == .bool(true) }.map { $0["id"] } == [.string(member)])
                    #expect(nodes.first { $0["displayName"] == .string("Avó") }?["age"] == (seesAges ? .int(78) : .null))
                }
            }
        }
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
