/// A database that also takes writes, each closure in one transaction (GRDB's
/// `DatabaseWriter`): committed when the closure returns, rolled back when it throws.
///
/// ```swift
/// try await writer.write { db in
///     try db.execute("INSERT INTO notes (id, body) VALUES (?, ?)", [id, body])
///     try changeLog.record(topic: topic, kind: .noteAdded, payload: NoteAdded(id: id), in: db)
/// }
/// ```
///
/// Work registered with ``Database/afterCommit(_:)`` runs after the commit, in commit order.
/// Statements that cannot run in a transaction, checkpoints, integrity checks and statistics
/// are the concrete store's business (``DatabasePool``), reached by the composition root only.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `body` in a write transaction, blocking the calling thread; commits when `body`
    /// returns, rolls back and rethrows when it throws.
    /// - Throws: What `body` throws, or ``StoreError`` (including a failed commit, after which
    ///   nothing was written).
    func write<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` in a write transaction, suspending the caller (not blocking its thread).
    /// - Throws: What `body` throws, ``StoreError``, or `CancellationError`.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// How many write transactions this store has finished. A cache of read results is exact
    /// while the number has not changed since its values were read (``CommitScopedCache``):
    /// read the count first, then the database, and drop the cache when the count moves. A
    /// store shared by several processes must count the commits it learns of from the others.
    var commitCount: UInt64 { get }
}
