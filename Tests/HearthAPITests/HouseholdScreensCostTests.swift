import GraphQL
import HearthServices
import TestFixtures
import Testing

/// What the setup checklist and the economy settings (`household(id:)` with its `onboarding` or
/// its `economy`) cost through the API beside the household alone, counted by the pool: read
/// transactions (reader connections lent) and SQL statements. Counts, not timings. With the
/// household cache off, so that every request reads (what a kept read costs: `HouseholdKeptReadsTests`).
@Suite struct HouseholdScreensCostTests {
    static let checklist = "query($id: ID!) { household(id: $id) { onboarding { isComplete nextStep steps { step state isRequired } } } }"
    static let economy = "query($id: ID!) { household(id: $id) { economy { currencyPerToken currencyCode earningsSplit } } }"
    static let alone = "query($id: ID!) { household(id: $id) { name } }"

    /// The read transactions and statements `query` took as `viewer` for `householdID`, and its result.
    private func cost(
        _ fixture: HouseholdsAPIFixture, _ query: String, _ householdID: String, as viewer: Viewer
    ) async throws -> (transactions: Int, statements: Int, result: ExecutionResult) {
        let pool = fixture.harness.pool
        let (lendings, statements) = (try StoreStatistics.lendings(of: pool), try StoreStatistics.statements(of: pool))
        let result = try await fixture.execute(query, ["id": .string(householdID)], as: viewer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return (try StoreStatistics.lendings(of: pool) - lendings, try StoreStatistics.statements(of: pool) - statements, result)
    }

    @Test func theChecklistIsReadWithTheHouseholdInOneTransactionAndOneStatementMore() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await cost(fixture, Self.alone, flat, as: ana)
            let alone = try await cost(fixture, Self.alone, flat, as: ana)
            let checklist = try await cost(fixture, Self.checklist, flat, as: ana)
            #expect(checklist.transactions == alone.transactions)
            #expect(checklist.statements == alone.statements + 1, "the steps, the completion and the first chore in one statement")
            let onboarding = checklist.result.data?["household"]?["onboarding"]
            #expect(onboarding?["isComplete"] == .bool(false))
            #expect(onboarding?["nextStep"] == .string("ADMIN"))
            guard case .array(let steps)? = onboarding?["steps"] else {
                Issue.record("no steps: \(String(describing: onboarding))")
                return
            }
            #expect(steps.compactMap { $0["step"] } == ["HOUSEHOLD", "ADMIN", "MEMBERS", "ECONOMY", "CHORE"].map(JSON.string))
            #expect(steps.first?["state"] == .string("DONE"))
        }
    }

    @Test func theChecklistSelectedTwiceOrThroughAFragmentIsTheSame() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await cost(fixture, Self.checklist, flat, as: ana)  // fills the caches the creation emptied
            let once = try await cost(fixture, Self.checklist, flat, as: ana)
            let fragment = try await cost(
                fixture, "query($id: ID!) { household(id: $id) { ...Setup again: onboarding { nextStep } } } fragment Setup on Household { onboarding { isComplete nextStep steps { step state isRequired } } }",
                flat, as: ana)
            #expect(fragment.transactions == once.transactions)
            #expect(fragment.result.data?["household"]?["onboarding"] == once.result.data?["household"]?["onboarding"])
            #expect(fragment.result.data?["household"]?["again"]?["nextStep"] == .string("ADMIN"))
        }
    }

    @Test func theEconomySettingsCostNothingBesideTheHousehold() async throws {
        try await HouseholdsAPIFixture.with(configure: { $0.keptReadEntries = 0 }) { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await cost(fixture, Self.alone, flat, as: ana)
            let alone = try await cost(fixture, Self.alone, flat, as: ana)
            let economy = try await cost(fixture, Self.economy, flat, as: ana)
            #expect(economy.transactions == alone.transactions)
            #expect(economy.statements == alone.statements, "the economy is read with the household's record")
            #expect(economy.result.data?["household"]?["economy"]?["currencyCode"] != nil)
        }
    }
}
