import HearthStore

/// Statements `body` runs on `pool`, less those of an empty read transaction (`BEGIN`, the
/// snapshot's pin, `COMMIT`): what the read itself costs, for tests that a read does not grow
/// with the number of rows (N + 1). Counts, not timings.
func statements(on pool: DatabasePool, _ body: () async throws -> Void) async throws -> Int {
    func executed() -> Int { pool.statistics.readers.statements + pool.statistics.writer.statements }
    let empty = executed()
    try await pool.read { _ in }
    let transaction = executed() - empty
    let before = executed()
    try await body()
    return executed() - before - transaction
}
