import Synchronization

/// Values read from the database, kept until the next write transaction commits, or, given the
/// tables the values are read from, the next that changes a row of them.
///
/// Whatever the write changed, every entry goes: no write path has to remember to invalidate
/// anything, so the cache can never serve a value older than the last commit. It pays off for
/// data read on every request and written rarely (the signed-in user's account). Exactness
/// rests on ``DatabaseWriter/commitCount``: the count is read before the database, and an entry
/// is served only while the count is unchanged. While a commit is in flight (an odd count), a
/// reader may already see what it wrote in another read, so nothing is served or kept. With
/// `tables`, the count is the store's ``TableCommitCounter`` of those tables, which SQLite itself
/// moves (its preupdate hook sees every row any SQL changes): a commit that wrote only other
/// tables (a chore done) leaves the accounts kept. Name every table the reads touch.
///
/// ```swift
/// let users = CommitScopedCache<String, UserRecord?>(pool: pool)
/// if let user = try users.valueWithoutWaiting(for: id, read: { try UserRecord.find(id: id, in: $0) }) { … }
/// ```
///
/// The lookups are `@inlinable` so that callers in other modules get code specialized for their
/// key and value types: unspecialized, the lookup on every signed-in request paid for generic
/// metadata and witness calls.
public final class CommitScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var commitCount: UInt64 = 0
        @usableFromInline var values: [Key: Value] = [:]

        @usableFromInline init() {}
    }

    /// The store whose commits end the entries.
    @usableFromInline let pool: any DatabaseWriter
    /// The count of the commits to the tables the values are read from, when the store tells
    /// them apart; otherwise every commit ends the entries.
    @usableFromInline let tableCommits: TableCommitCounter?
    /// The most entries kept; when full, the cache starts afresh.
    public let capacity: Int
    @usableFromInline let state = Mutex(State())

    /// Creates an empty cache over `pool`; with `tables`, the tables every value is read from
    /// alone, only commits that changed one of them end the entries, where the store can tell
    /// (``DatabaseWriter/commitCounter(touching:)``).
    public init(pool: any DatabaseWriter, capacity: Int = 10_000, tables: Set<String>? = nil) {
        self.pool = pool
        self.capacity = capacity
        tableCommits = tables.flatMap(pool.commitCounter(touching:))
    }

    /// The count that ends the entries when it moves: of the commits to the tables, or of all.
    @usableFromInline var commitCount: UInt64 {
        tableCommits?.value ?? pool.commitCount
    }

    /// The value for `key`: cached, or read on the calling thread when a database reader is
    /// idle (see ``DatabaseReader/readIfIdle(_:)``); `nil` when neither, and the caller should
    /// use the `async` ``value(for:read:)``.
    /// - Throws: What `read` throws, or `StoreError`.
    @inlinable
    public func valueWithoutWaiting(for key: Key, read: (Database) throws -> Value) throws -> Value? {
        let count = commitCount
        if let cached = cached(key, at: count) { return cached }
        guard let value = try pool.readIfIdle(read) else { return nil }
        store(value, for: key, readAt: count)
        return value
    }

    /// The value for `key`: cached, or read on a database reader.
    /// - Throws: What `read` throws, `StoreError`, or `CancellationError`.
    @inlinable
    public func value(for key: Key, read: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        let count = commitCount
        if let cached = cached(key, at: count) { return cached }
        let value = try await pool.read(read)
        store(value, for: key, readAt: count)
        return value
    }

    /// The cached value for `key`, without reading the database; `nil` when none is cached.
    @inlinable
    public func cachedValue(for key: Key) -> Value? {
        cached(key, at: commitCount)
    }

    /// The values for `keys`: cached ones, and the others read together by `read`, given the
    /// keys not cached, in one read on a database reader, so a list whose items each need a value
    /// costs one statement, not one per item. `read` answers for every key it is given (a key
    /// it leaves out is read again next time).
    /// - Throws: What `read` throws, `StoreError`, or `CancellationError`.
    public func values(
        for keys: [Key], read: @escaping @Sendable ([Key], Database) throws -> [Key: Value]
    ) async throws -> [Key: Value] {
        let count = commitCount
        var values: [Key: Value] = [:]
        var missing: [Key] = []
        for key in Set(keys) {
            if let cached = cached(key, at: count) { values[key] = cached } else { missing.append(key) }
        }
        guard !missing.isEmpty else { return values }
        let read = try await pool.readPreferringCallingThread { [missing] database in try read(missing, database) }
        for (key, value) in read {
            store(value, for: key, readAt: count)
            values[key] = value
        }
        return values
    }

    /// How many values are cached now (for tests and metrics).
    public var count: Int {
        state.withLock { $0.values.count }
    }

    @inlinable
    func cached(_ key: Key, at count: UInt64) -> Value? {
        guard count & 1 == 0 else { return nil }
        return state.withLock { state in
            if state.commitCount != count {
                state.values.removeAll(keepingCapacity: true)
                state.commitCount = count
                return nil
            }
            return state.values[key]
        }
    }

    /// Keeps `value`, read after the commit count was `count`, unless a commit has happened
    /// since (then the value may already be stale, and the cache has moved on or will).
    @inlinable
    func store(_ value: Value, for key: Key, readAt count: UInt64) {
        state.withLock { state in
            guard count & 1 == 0, state.commitCount == count, commitCount == count else { return }
            if state.values.count >= capacity { state.values.removeAll(keepingCapacity: true) }
            state.values[key] = value
        }
    }
}
