import GraphQL
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// What a live `syncDeltas` subscriber costs the store per change, counted by the store (the
/// connections it lends for reads and writes, not timings): its page and the lookup of the page's
/// objects, nothing more. Before, every change made each subscriber read three times (the page; the
/// next page, empty; its scopes), and a commit that recorded several rows woke a read per row.
@Suite struct SyncDeltasCostTests {
    static let subscription = """
        subscription($since: String) { syncDeltas(since: $since) { changes { operation id node { ... on Household { name } } } endCursor } }
        """

    /// Renames `household` `times` times in one write transaction, a change-log row each.
    private func rename(_ fixture: HouseholdsAPIFixture, _ household: String, to name: String, times: Int = 1) async throws {
        let changeLog = fixture.harness.service.changeLog
        _ = try await fixture.harness.pool.write { database in
            for time in 1...times {
                try database.execute("UPDATE households SET name = ? WHERE id = ?", ["\(name) \(time)", household])
                _ = try changeLog.record(topic: .household(household), kind: .householdUpdated, payload: HouseholdChange(householdID: household), in: database)
            }
        }
    }

    @Test func eachCommitCostsASubscriberTheReadsOfOnePage() async throws {
        try await HouseholdsAPIFixture.with(sync: true) { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let since = String(try await fixture.harness.service.changeLog.latestSequence())
            guard case .stream(let stream) = await fixture.operate(Self.subscription, ["since": .string(since)], as: ana) else {
                Issue.record("syncDeltas was refused")
                return
            }
            var deliveries = stream.makeAsyncIterator()
            let pool = fixture.harness.pool
            try await rename(fixture, flat, to: "First")
            _ = try #require(try await deliveries.next())

            // The reads of one delivery, committed before the subscriber asks: its page and the lookup.
            try await rename(fixture, flat, to: "Single")
            var before = try StoreStatistics.lendings(of: pool)
            let single = try #require(try await deliveries.next())
            let onePage = try StoreStatistics.lendings(of: pool) - before
            #expect(single.data?["syncDeltas"]?["changes"]?[0]?["node"]?["name"] == "Single 1")

            // Three rows in one commit: one page, not a read per row.
            try await rename(fixture, flat, to: "Triple", times: 3)
            before = try StoreStatistics.lendings(of: pool)
            let triple = try #require(try await deliveries.next())
            #expect(try StoreStatistics.lendings(of: pool) - before == onePage)
            #expect(triple.data?["syncDeltas"]?["changes"]?[0]?["node"]?["name"] == "Triple 3")

            // Committed while the subscriber asks (before or after it began to wait): one page too,
            // and the events of the rows it already read wake nothing.
            before = try StoreStatistics.lendings(of: pool)
            let committing = Task { try await rename(fixture, flat, to: "Later") }
            let later = try #require(try await deliveries.next())
            try await committing.value
            #expect(try StoreStatistics.lendings(of: pool) - before == onePage + 1, "the page, and the rename's own write")
            #expect(later.data?["syncDeltas"]?["changes"]?[0]?["node"]?["name"] == "Later 1")
        }
    }
}
