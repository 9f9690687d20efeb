import Dispatch
import Glibc
import Synchronization

/// A PostgreSQL database behind the reader/writer seam: a bounded pool of libpq connections
/// shared by reads and writes, for deployments where several Hearth processes serve one
/// database (docs/architecture.md, "Portable SQL").
///
/// ```swift
/// let store = try PostgresStore(configuration: .init(url: "postgres://hearth@db/hearth?sslmode=verify-full"))
/// try await store.write { db in try db.execute("INSERT INTO notes (id, body) VALUES (?, ?)", [id, body]) }
/// ```
///
/// - Writes run in `SERIALIZABLE` transactions. One that fails to serialize against a
///   concurrent transaction (SQLSTATE 40001) or deadlocks (40P01) is rolled back and run
///   again, up to ``Configuration/maxWriteAttempts`` times with a jittered, doubling backoff;
///   work it registered with ``Database/afterCommit(_:)`` is discarded with the failed attempt.
///   So **a write closure must be re-runnable**: it may only touch the database and compute
///   its result, with effects outside the database left to `afterCommit` (which services do).
///   Concurrent writes run on several connections, so their `afterCommit` work runs in any
///   order, not in commit order as behind SQLite's single writer: what must follow commit order
///   reads it from the database (the change log's `ChangeLogRelay`).
/// - Reads run in `REPEATABLE READ, READ ONLY` transactions: one snapshot for the closure.
/// - A statement is prepared once per connection. When another session alters a table so
///   that a cached statement's result type changes (PostgreSQL's "cached plan must not change
///   result type"), the connection prepares it again: at once outside a transaction, and by
///   running the read or write again inside one, which that error aborted.
/// - Connections open when first needed, up to ``Configuration/maxConnections``, and close
///   again after ``Configuration/idleTimeout`` unused (a past peak's), all but the one lent
///   next. The pool looks for them when it lends a connection, at most a few times per idle
///   timeout, with no timer of its own: an instance with no requests still lends one at least
///   every `--job-poll-interval` (the job scheduler's poll).
/// - ``readIfIdle(_:)`` always answers `nil`: every statement is a network round trip, which
///   an event loop must never wait for.
/// - A connection the server dropped is reconnected before its next transaction.
/// - Do not call `read` or `write` of the same store from inside one of its closures.
public final class PostgresStore: DatabaseWriter {
    /// The settings the store was opened with.
    public let configuration: Configuration

    private let commits = Atomic<UInt64>(0)
    private let group: ConnectionGroup<SerializedDatabase>
    private let queueKey = DispatchSpecificKey<Bool>()
    /// When the pool next looks for connections idle past the timeout.
    private let nextIdleCheck = Mutex(ContinuousClock.now)

    /// A pool of up to ``Configuration/maxConnections`` connections to the server, of which it
    /// opens one now (so a wrong URL or password fails here) and the others when concurrent
    /// transactions first need them: an idle instance holds one session of the server's
    /// `max_connections`, a busy one at most its limit. Connections unused for
    /// ``Configuration/idleTimeout`` close again.
    ///
    /// - Throws: ``StoreError`` `.cantOpen` when the server cannot be reached or refuses the
    ///   credentials; the message holds the URL redacted, never the password.
    public init(configuration: Configuration) throws {
        precondition(configuration.maxConnections >= 1, "a PostgreSQL pool needs at least one connection")
        precondition(configuration.maxWriteAttempts >= 1, "a write needs at least one attempt")
        self.configuration = configuration
        let connections = (0..<configuration.maxConnections).map { _ in
            PostgresConnection(
                lazilyConnectingTo: configuration.url, password: configuration.password,
                statementCacheCapacity: configuration.statementCacheCapacity)
        }
        do {
            // The pool lends its idle connections last in, first out: the last one is lent
            // first, and again whenever it is the only one in use.
            try connections.last?.reconnectIfBroken()
        } catch let error as StoreError {
            throw StoreError(
                extendedCode: error.extendedCode, message: "\(error.message) (database \(configuration.redactedURL))",
                category: error.category, sqlState: error.sqlState)
        }
        let key = queueKey
        group = ConnectionGroup(
            connections: connections.enumerated().map { index, connection in
                SerializedDatabase(database: Database(postgres: connection), label: "HearthStore.postgres.\(index)", key: key)
            },
            name: "PostgreSQL",
            acquireTimeout: configuration.acquireTimeout
        )
    }

    // MARK: Reading

    private static let beginRead = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
    private static let beginWrite = "BEGIN ISOLATION LEVEL SERIALIZABLE"

    /// Runs `body` in a `REPEATABLE READ, READ ONLY` transaction, blocking the calling thread.
    /// - Throws: What `body` throws, or ``StoreError`` (`.busy` past the acquire timeout).
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try withConnection { database in try database.transaction(beginning: Self.beginRead) { try body(database) } }
            } catch let error as StoreError where isRerunnableRead(error, after: attempt) {
                attempt += 1
            }
        }
    }

    /// Runs `body` in a `REPEATABLE READ, READ ONLY` transaction, suspending the caller.
    /// - Throws: What `body` throws, ``StoreError``, or `CancellationError`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await withConnection { database in try database.transaction(beginning: Self.beginRead) { try body(database) } }
            } catch let error as StoreError where isRerunnableRead(error, after: attempt) {
                attempt += 1
            }
        }
    }

    /// Whether a read that failed with `error` on attempt `attempt` runs again: once on a
    /// connection the server dropped (a restart, a failover; libpq notices on use), and on a
    /// statement whose cached plan went stale (its connection prepares it anew) while
    /// ``Configuration/maxWriteAttempts`` allow.
    private func isRerunnableRead(_ error: StoreError, after attempt: Int) -> Bool {
        attempt == 1 && Self.isLostConnection(error)
            || error.isStaleCachedPlan && attempt < configuration.maxWriteAttempts
    }

    /// Always `nil`: no PostgreSQL read is free of a network round trip.
    public func readIfIdle<T>(_ body: (Database) throws -> T) throws -> T? {
        nil
    }

    /// Always `nil`: the commits of other processes on the database reach this one as
    /// notifications, a moment after they are visible (``advanceCommitCount()``), and a mark must
    /// move before any read can see a commit. Callers read.
    public func changeMark() async throws -> ChangeMark? {
        nil
    }

    // MARK: Writing

    /// Runs `body` in a `SERIALIZABLE` transaction, retried on serialization failures (see the
    /// type's documentation), blocking the calling thread.
    /// - Throws: What `body` throws, or ``StoreError`` (`.serializationFailure` once the attempts are spent).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try withConnection { database in try committing(database, body) }
            } catch let error as StoreError where isRetryable(error, after: attempt) {
                let pause = backoff(after: attempt).components
                usleep(UInt32(clamping: pause.seconds * 1_000_000 + pause.attoseconds / 1_000_000_000_000))
                attempt += 1
            }
        }
    }

    /// Runs `body` in a `SERIALIZABLE` transaction, retried on serialization failures (see the
    /// type's documentation), suspending the caller; the backoff suspends too.
    /// - Throws: What `body` throws, ``StoreError``, or `CancellationError`.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await withConnection { [self] database in try committing(database, body) }
            } catch let error as StoreError where isRetryable(error, after: attempt) {
                try await Task.sleep(for: backoff(after: attempt))
                attempt += 1
            }
        }
    }

    /// Whether a write that failed with `error` on attempt `attempt` runs again: on a
    /// serialization failure, a deadlock or a statement whose cached plan went stale (its
    /// connection prepares it anew) while attempts remain, and once on a connection the
    /// server dropped before the `COMMIT` was sent (nothing was written; a lost `COMMIT` may
    /// have committed, so it is never retried).
    private func isRetryable(_ error: StoreError, after attempt: Int) -> Bool {
        guard attempt < configuration.maxWriteAttempts else { return false }
        return error.category == .serializationFailure || error.isStaleCachedPlan
            || attempt == 1 && Self.isLostConnection(error) && error.sql != Database.commitSQL
    }

    /// Whether `error` says the connection to the server was lost (SQLSTATE class 08).
    private static func isLostConnection(_ error: StoreError) -> Bool {
        error.sqlState?.hasPrefix("08") == true
    }

    /// The wait before retry `attempt + 1`: ``Configuration/retryBackoff`` doubled per earlier
    /// attempt up to ``maximumBackoffDoublings`` times, times a random factor in [0.5, 1.5) so
    /// racing writers drift apart.
    private func backoff(after attempt: Int) -> Duration {
        configuration.retryBackoff * (1 << min(attempt - 1, Self.maximumBackoffDoublings)) * Double.random(in: 0.5..<1.5)
    }

    /// How often the backoff doubles at most: 2 ms becomes at most 64 ms, so the default 32
    /// attempts spend about two seconds waiting in all, not minutes.
    private static let maximumBackoffDoublings = 5

    /// Runs `body` in a serializable transaction and counts its commit as ``DatabasePool`` does:
    /// once right before `COMMIT` and once right after, before its callbacks.
    private func committing<T>(_ database: Database, _ body: (Database) throws -> T) throws -> T {
        var inFlight = false
        defer { if inFlight { commits.add(1, ordering: .releasing) } }
        return try database.transaction(beginning: Self.beginWrite) {
            database.afterCommit { [self] in
                inFlight = false
                commits.add(1, ordering: .releasing)
            }
            let result = try body(database)
            commits.add(1, ordering: .releasing)
            inFlight = true
            return result
        }
    }

    /// This process's count of commits, moved twice per write transaction (right before its
    /// `COMMIT` and right after), like ``DatabasePool/commitCount``, plus what
    /// ``advanceCommitCount()`` adds for other processes' commits.
    public var commitCount: UInt64 {
        commits.load(ordering: .acquiring)
    }

    /// Counts a commit another process made, so caches keyed on ``commitCount`` drop what it
    /// changed: the event bus calls it when it learns of one. Moves the count by two, so its
    /// parity (odd while this process commits) is kept.
    public func advanceCommitCount() {
        commits.add(2, ordering: .releasing)
    }

    // MARK: Maintenance

    /// Runs `VACUUM` on the whole database: the row versions deleted or overwritten so far leave
    /// the tables' pages, so nothing reading the tables (or their files page by page) finds them.
    /// PostgreSQL has no `secure_delete`: the freed bytes are not zeroed until reused, and
    /// the write-ahead log keeps its copies until its segments are recycled; encrypt the
    /// storage where that matters. Runs outside a transaction, as `VACUUM` must.
    /// - Throws: ``StoreError``.
    public func eraseDeletedContent() async throws {
        try await withConnection { database in try database.executeScript("VACUUM") }
    }

    /// Runs `body` on a connection with no transaction around it (migrations, `VACUUM`); any
    /// transaction left open is rolled back.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { database in
            commits.add(1, ordering: .releasing)
            defer {
                database.rollbackIfNeeded()
                commits.add(1, ordering: .releasing)
            }
            return try body(database)
        }
    }

    /// How many connections are lent and how often and long callers waited, with the
    /// statements executed and prepared, for metrics and tests.
    public var statistics: ConnectionStatistics {
        var statistics = group.statistics
        statistics.statements = group.connections.reduce(0) { $0 + $1.executedStatements }
        statistics.preparedStatements = group.connections.reduce(0) { $0 + $1.preparedStatements }
        return statistics
    }

    /// Waits for connections in use to come back, then closes them all; later calls throw
    /// ``StoreError`` `.misuse`. Closing twice does nothing.
    public func close() {
        for connection in group.close() {
            connection.close()
        }
    }

    // MARK: Plumbing

    private func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        precondition(
            DispatchQueue.getSpecific(key: queueKey) == nil,
            "PostgresStore.read/write called from inside one of its own closures: use the Database you were given"
        )
        let connection = try group.acquire()
        defer {
            group.release(connection)
            closeIdleConnectionsIfDue()
        }
        return try connection.sync { database in
            try database.reconnectIfBroken()
            return try body(database)
        }
    }

    private func withConnection<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let connection = try await group.acquire()
        defer {
            group.release(connection)
            closeIdleConnectionsIfDue()
        }
        return try await connection.run { database in
            try database.reconnectIfBroken()
            return try body(database)
        }
    }
}

extension PostgresStore {
    /// Closes, off the caller's thread, the connections idle past ``Configuration/idleTimeout``
    /// (see ``ConnectionGroup/acquireIdle(atLeast:)``), when a check is due: once a quarter of
    /// the idle timeout has passed since the last (a minute, for timeouts over four minutes).
    private func closeIdleConnectionsIfDue() {
        guard let idleTimeout = configuration.idleTimeout else { return }
        let now = ContinuousClock.now
        let isDue = nextIdleCheck.withLock { next -> Bool in
            guard now >= next else { return false }
            next = now.advanced(by: min(idleTimeout / 4, .seconds(60)))
            return true
        }
        guard isDue else { return }
        DispatchQueue.global().async { [group] in
            while let slot = group.acquireIdle(atLeast: idleTimeout) {
                slot.sync { $0.disconnect() }
                group.releaseClosed(slot)
            }
        }
    }
}

extension Database {
    /// Closes a PostgreSQL connection until its next statement reopens it; nothing for SQLite.
    func disconnect() {
        if case .postgres(let postgres) = connection {
            postgres.close()
        }
    }

    /// Reconnects a PostgreSQL connection the server dropped; nothing for SQLite.
    func reconnectIfBroken() throws {
        if case .postgres(let postgres) = connection {
            try postgres.reconnectIfBroken()
        }
    }
}
