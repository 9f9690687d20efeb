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

    /// A count of this store's commits, odd while one is in flight (``DatabasePool/commitCount``).
    /// A cache of read results is exact while the number is even and has not changed since its
    /// values were read (``CommitScopedCache``): read the count first, then the database, and
    /// drop the cache when the count moves. A store shared by several processes must count the
    /// commits it learns of from the others.
    var commitCount: UInt64 { get }

    /// A new count of the commits that changed a row of `tables`, odd while one is in flight
    /// (``TableCommitCounter``), for a cache of values read from those tables alone (make one per
    /// cache, outside the store's closures); `nil` when the store cannot tell which tables a
    /// commit changed, and ``commitCount`` serves instead.
    func commitCounter(touching tables: Set<String>) -> TableCommitCounter?

    /// Makes what the store's files still hold of rows deleted or overwritten so far unreadable
    /// there too, not only in the tables: for personal data that must leave the disk when it
    /// leaves the database (a departed child's name). SQLite overwrites freed space as it frees it
    /// (`secure_delete`) and keeps older page images in its write-ahead log only, so its pool
    /// checkpoints the log into the database file and truncates it; ``PostgresStore`` runs
    /// `VACUUM`. It takes the writer and waits for readers of older snapshots, so call it after
    /// the commit that erased, and only for such erasures.
    /// - Throws: ``StoreError`` (`.busy` when readers kept older snapshots past the busy timeout:
    ///   the copies then go at the next truncating checkpoint).
    func eraseDeletedContent() async throws
}

extension DatabaseWriter {
    /// None: every commit may have changed any table (PostgreSQL, whose other processes' commits
    /// this one learns of without their tables).
    public func commitCounter(touching tables: Set<String>) -> TableCommitCounter? { nil }
}
