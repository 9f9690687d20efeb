import HearthStore
import TestFixtures

/// Statements `body` runs on `store`, less those of an empty read transaction (`BEGIN`, the
/// snapshot's pin, `COMMIT`): what the read itself costs, for tests that a read does not grow
/// with the number of rows (N + 1). Counts, not timings.
func statements(on store: any DatabaseWriter, _ body: () async throws -> Void) async throws -> Int {
    func executed() throws -> Int { try StoreStatistics.statements(of: store) }
    let empty = try executed()
    try await store.read { _ in }
    let transaction = try executed() - empty
    let before = try executed()
    try await body()
    return try executed() - before - transaction
}
