import HearthStore

/// One read transaction that several batched reads of a request share (the API's loader groups):
/// the related rows a list shows (tags, assignees, steps, rules, completions, members) are read
/// together, one statement per kind in one transaction, rather than one transaction per kind.
/// Only valid inside the ``ChoreService/readTogether(_:)`` call that made it.
public struct SharedRead {
    let database: Database
}

extension ChoreService {
    /// Runs `body` in one read transaction, with the ``SharedRead`` the batched reads take.
    public func readTogether(_ body: @escaping @Sendable (SharedRead) -> Void) async throws {
        try await pool.readPreferringCallingThread { body(SharedRead(database: $0)) }
    }
}
