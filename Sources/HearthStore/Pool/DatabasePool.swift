import Dispatch
import CSQLite
import FoundationEssentials
import Glibc
import Synchronization

/// Access to one SQLite database file: one writer connection and several readers in
/// WAL mode, so reads run in parallel with each other and with the write. It is the SQLite
/// ``DatabaseWriter``: services hold the protocol, only the composition root this class.
///
/// ```swift
/// let pool = try DatabasePool(path: "data/app.sqlite")
/// try pool.write { db in
///     try db.execute("INSERT INTO notes (id, body) VALUES (?, ?)", [id, body])
/// }
/// let count = try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM notes") }
/// let notes = try await pool.read { db in try db.decode(Note.self, "SELECT * FROM notes") }
/// ```
///
/// - Reads run in a deferred transaction whose snapshot is pinned before the closure
///   starts: the closure sees one consistent state even while the writer commits.
/// - Writes run in an `IMMEDIATE` transaction, committed when the closure returns and
///   rolled back when it throws (the error is rethrown). With `synchronous = FULL` a
///   write that returned has been fsynced: it survives `kill -9` and power loss.
///   Work registered with ``Database/afterCommit(_:)`` runs after the commit, before the
///   writer serves the next write, so successive writes see it run in commit order.
/// - Each connection lives on its own serial queue. The synchronous `read`/`write`
///   block the calling thread while waiting for a connection and running the closure;
///   call the `async` variants from Swift concurrency, they suspend instead.
/// - Do not call `read` or `write` of the same pool from inside one of its closures:
///   use the `Database` you were given (reentrancy would deadlock, so it traps).
public final class DatabasePool: DatabaseWriter {
    /// The database file.
    public let path: String
    /// The settings the pool was opened with.
    public let configuration: Configuration

    private let commits = Atomic<UInt64>(0)
    /// The counters of ``commitCounter(touching:)``.
    private let tableCounters = Mutex<[TableCommitCounter]>([])
    /// Whether the writer tells which tables a write changed (SQLite's preupdate hook).
    private let tellsChangedTables: Bool
    /// Commits the readers noticed (``changeMark()``): moved when a reader finds its data version
    /// changed since it last looked.
    private let noticedCommits = Atomic<UInt64>(0)
    private let writer: ConnectionGroup<SerializedDatabase>
    private let readers: ConnectionGroup<SerializedDatabase>
    private let queueKey = DispatchSpecificKey<Bool>()

    /// Opens (creating if needed) the database at `path` and its connections.
    ///
    /// The parent directory is created if missing, and the file too, both with
    /// ``Configuration/newFileMode`` (SQLite gives the `-wal` and `-shm` files the database
    /// file's permissions). The writer switches the file to WAL mode; every connection enables foreign keys and applies `synchronous` and the busy
    /// timeout; readers are `query_only`.
    ///
    /// - Throws: ``StoreError`` if the directory cannot be created or a connection cannot
    ///   be opened or configured.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        precondition(configuration.readerCount >= 1, "a pool needs at least one reader")
        self.path = path
        self.configuration = configuration
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: Int(Self.directoryMode(for: configuration.newFileMode))])
            } catch {
                throw StoreError(extendedCode: .cantOpen, message: "cannot create directory \(directory): \(error)")
            }
        }
        try Self.createFileIfMissing(path, mode: configuration.newFileMode)
        // The writer opens first: it sets WAL mode, which readers then find in the file.
        let writerConnection = try Database(path: path, role: .writer, configuration: configuration)
        var readerConnections: [Database] = []
        do {
            for _ in 0..<configuration.readerCount {
                readerConnections.append(try Database(path: path, role: .reader, configuration: configuration))
            }
        } catch {
            readerConnections.forEach { $0.close() }
            writerConnection.close()
            throw error
        }
        tellsChangedTables = writerConnection.changedTables != nil
        let key = queueKey
        writer = ConnectionGroup(
            connections: [SerializedDatabase(database: writerConnection, label: "HearthStore.writer", key: key)],
            name: "writer"
        )
        readers = ConnectionGroup(
            connections: readerConnections.enumerated().map { index, connection in
                SerializedDatabase(database: connection, label: "HearthStore.reader.\(index)", key: key)
            },
            name: "reader"
        )
    }

    /// Creates an empty database file with `mode` unless one exists (SQLite would create it
    /// with 0644 less the umask).
    private static func createFileIfMissing(_ path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if descriptor >= 0 {
            // open() applied the umask; the mode is meant whatever the umask.
            _ = fchmod(descriptor, mode)
            Glibc.close(descriptor)
        } else if errno != EEXIST {
            throw StoreError(extendedCode: .cantOpen, message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A directory's mode for files of `fileMode`: whoever may read or write may also search.
    static func directoryMode(for fileMode: mode_t) -> mode_t {
        var mode = fileMode
        if mode & 0o600 != 0 { mode |= 0o100 }
        if mode & 0o060 != 0 { mode |= 0o010 }
        if mode & 0o006 != 0 { mode |= 0o001 }
        return mode
    }

    // MARK: Reading

    /// Runs `body` on a reader inside a read transaction (a stable snapshot), blocking
    /// the calling thread until it returns.
    ///
    /// - Throws: what `body` throws, or ``StoreError``.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection(from: readers) { database in
            try Self.readTransaction(database, body)
        }
    }

    /// Runs `body` on a reader inside a read transaction, suspending the caller (not
    /// blocking its thread) while it waits for a connection and while `body` runs.
    ///
    /// - Throws: what `body` throws, ``StoreError``, or `CancellationError` if the task
    ///   is cancelled while waiting for a connection.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withConnection(from: readers) { database in
            try Self.readTransaction(database, body)
        }
    }

    /// Runs `body` on a reader inside a read transaction on the calling thread, if a reader
    /// is idle; returns `nil` at once, without running `body`, when every reader is lent.
    ///
    /// For event loops and other threads that must never wait: a point read answered from
    /// SQLite's page cache takes microseconds, far less than handing the work to another
    /// thread, and when no reader is free the caller falls back to the `async` ``read(_:)``.
    ///
    /// - Throws: what `body` throws, or ``StoreError``.
    public func readIfIdle<T>(_ body: (Database) throws -> T) throws -> T? {
        try withIdleReader { connection in try connection.sync { database in try Self.readTransaction(database, body) } }
    }

    /// A mark of the commits to the database file (``ChangeMark``), by this pool's writer or any
    /// other connection, in this process or another: one `PRAGMA data_version` on a reader, in
    /// no transaction, on the calling thread when a reader is idle.
    ///
    /// A reader's data version moves when it finds that another connection committed since its
    /// previous read. The pool counts each reader's moves (``noticedCommits``), and a mark is
    /// that count once the reader it ran on reported: a commit made after a mark moves the data
    /// version of every reader, and the first look of any of them after it moves the count, so
    /// every later mark differs. A reader that has not looked since still finds it later; one
    /// commit may thus move the count once per reader, which only costs the caller a read.
    /// Readers never write, so each commit is another connection's to all of them.
    /// - Throws: ``StoreError``, or `CancellationError`.
    public func changeMark() async throws -> ChangeMark? {
        // On the calling thread, not the reader's queue: the hop cost more than the statement,
        // and nothing but `mark(reportedBy:)` runs there (no caller's closure could reenter the pool).
        if let mark = try withIdleReader({ connection in try connection.onCallingThread { database in try mark(reportedBy: database) } }) {
            return mark
        }
        return try await withConnection(from: readers) { [self] database in try mark(reportedBy: database) }
    }

    /// Reports `database`'s data version (moving ``noticedCommits`` if it changed) and returns
    /// the mark after it.
    private func mark(reportedBy database: Database) throws -> ChangeMark {
        let version = try database.dataVersion()
        if version != database.reportedDataVersion {
            database.reportedDataVersion = version
            noticedCommits.add(1, ordering: .sequentiallyConsistent)
        }
        return ChangeMark(noticedCommits.load(ordering: .sequentiallyConsistent))
    }

    // MARK: Writing

    /// Runs `body` on the writer inside an `IMMEDIATE` transaction, blocking the calling
    /// thread; commits when `body` returns, rolls back and rethrows when it throws.
    ///
    /// - Throws: what `body` throws, or ``StoreError`` (including a failed `COMMIT`,
    ///   after which nothing was written).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection(from: writer) { database in try committing(database) { try body(database) } }
    }

    /// Runs `body` on the writer inside an `IMMEDIATE` transaction, suspending the caller
    /// (not blocking its thread); commits when `body` returns, rolls back when it throws.
    ///
    /// - Throws: what `body` throws, ``StoreError``, or `CancellationError` if the task
    ///   is cancelled while waiting for the writer.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withConnection(from: writer) { [self] database in try committing(database) { try body(database) } }
    }

    /// Runs `body` on the writer with no transaction around it, for statements that
    /// cannot run inside one (`VACUUM`, `PRAGMA foreign_keys`) or that manage their own
    /// with ``Database/transaction(_:_:)``. Any transaction left open is rolled back.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection(from: writer) { database in
            // It may commit at any point, and change anything: in flight (odd) throughout.
            let counters = tableCounters.withLock { $0 }
            advance(counters)
            defer {
                database.rollbackIfNeeded()
                _ = database.changedTables?.take()
                advance(counters)
            }
            return try body(database)
        }
    }

    /// A new count of the commits that changed a row of `tables` (as their `CREATE TABLE` names
    /// them), odd while one is in flight (``TableCommitCounter``); `nil` when the writer cannot
    /// tell which tables a write changed (an SQLite without the preupdate hook, or a closed
    /// pool): then every commit may have changed them, as ``commitCount`` counts. Each call
    /// makes a counter the writer moves for as long as the pool lives: make one per cache. It is
    /// made between two writes, so it never misses the end of one, and, as ``write(_:)``, must
    /// not be called from inside one of the pool's closures.
    public func commitCounter(touching tables: Set<String>) -> TableCommitCounter? {
        guard tellsChangedTables else { return nil }
        return try? withConnection(from: writer) { _ in
            let counter = TableCommitCounter(tables: tables)
            tableCounters.withLock { $0.append(counter) }
            return counter
        }
    }

    /// Moves the commit count and `counters` by one (into a commit, or out of it).
    private func advance(_ counters: [TableCommitCounter]) {
        commits.add(1, ordering: .releasing)
        for counter in counters { counter.advance() }
    }

    /// Runs `body` in an `IMMEDIATE` transaction on the writer's `database` and counts its commit
    /// twice: right before `COMMIT` (the count is odd while the commit is in flight) and right
    /// after, before the callbacks `body` registered, so what they wake (subscribers reading at
    /// once) finds the commit counted. A failed `COMMIT` makes the count even again.
    private func committing<T>(_ database: Database, _ body: () throws -> T) throws -> T {
        var inFlight = false
        // The table counters of the tables the write changed move with the commit count.
        var moving: [TableCommitCounter] = []
        defer { if inFlight { advance(moving) } }
        _ = database.changedTables?.take()  // what a rolled-back write left
        return try database.transaction(.immediate) {
            database.afterCommit { [self] in
                inFlight = false
                advance(moving)
            }
            let result = try body()
            moving = counters(changedBy: database)
            advance(moving)
            inFlight = true
            return result
        }
    }

    /// The table counters of the tables the write on `database` changed rows of: all of them
    /// when it changed the schema.
    private func counters(changedBy database: Database) -> [TableCommitCounter] {
        guard let recorded = database.changedTables else { return [] }
        guard let changed = recorded.take() else { return tableCounters.withLock { $0 } }
        guard !changed.isEmpty else { return [] }
        return tableCounters.withLock { counters in counters.filter { !$0.tables.isDisjoint(with: changed) } }
    }

    /// Twice the number of write transactions that finished, odd while one is committing: it
    /// moves right before each `COMMIT` and right after it (before the commit's callbacks), and
    /// around every ``writeWithoutTransaction(_:)``, which may commit at any point. A cache of
    /// read results is exact while this number is even and has not changed since the values
    /// were read: read the count first, then the database, and drop the cache when the count
    /// moves; while it is odd, what a read sees may be newer than the count says.
    public var commitCount: UInt64 {
        commits.load(ordering: .acquiring)
    }

    // MARK: Maintenance

    /// Counters for metrics and tests: how often and how long callers waited for a
    /// connection, how many connections are in use, how many statements each group executed
    /// and compiled.
    public var statistics: PoolStatistics {
        func statistics(of group: ConnectionGroup<SerializedDatabase>) -> ConnectionStatistics {
            var statistics = group.statistics
            statistics.statements = group.connections.reduce(0) { $0 + $1.executedStatements }
            statistics.preparedStatements = group.connections.reduce(0) { $0 + $1.preparedStatements }
            return statistics
        }
        return PoolStatistics(readers: statistics(of: readers), writer: statistics(of: writer))
    }

    /// Copies the write-ahead log into the database file and truncates it
    /// (`wal_checkpoint(TRUNCATE)`); call it on graceful shutdown.
    ///
    /// - Throws: ``StoreError``, `.busy` if readers kept the log in use past the busy timeout.
    public func checkpoint() throws {
        try writeWithoutTransaction { database in
            try database.checkpoint()
        }
    }

    /// Checkpoints the write-ahead log into the database file and truncates it, as
    /// ``checkpoint()`` does, without blocking the calling thread: with `secure_delete` on (every
    /// connection sets it), freed space in the database file is zeroed, so after this no file
    /// holds a copy of a row deleted or overwritten before the call.
    /// - Throws: ``StoreError``, `.busy` if readers kept the log in use past the busy timeout.
    public func eraseDeletedContent() async throws {
        try await withConnection(from: writer) { database in
            defer { database.rollbackIfNeeded() }
            try database.checkpoint()
        }
    }

    /// The lines of `PRAGMA integrity_check`: `["ok"]` for a sound database.
    public func integrityCheck() throws -> [String] {
        try read { database in try database.integrityCheck() }
    }

    /// Waits for connections in use to come back, then closes them all; later calls to
    /// `read` and `write` throw ``StoreError`` `.misuse`. Closing twice does nothing.
    public func close() {
        for connection in readers.close() + writer.close() {
            connection.close()
        }
    }

    // MARK: Plumbing

    private static func readTransaction<T>(_ database: Database, _ body: (Database) throws -> T) throws -> T {
        try database.transaction(.deferred) {
            // A deferred transaction takes its snapshot at the first read; do one now so the
            // snapshot is pinned before `body` runs, not at some later query of `body`.
            try database.execute("SELECT rootpage FROM sqlite_master LIMIT 1")
            return try body(database)
        }
    }

    /// Runs `body` with an idle reader lent to it, on the calling thread; `nil` at once, without
    /// running `body`, when every reader is lent.
    private func withIdleReader<T>(_ body: (SerializedDatabase) throws -> T) throws -> T? {
        precondition(
            DispatchQueue.getSpecific(key: queueKey) == nil,
            "DatabasePool.readIfIdle/changeMark called from inside one of its own closures: use the Database you were given"
        )
        guard let connection = try readers.acquireIfIdle() else { return nil }
        defer { readers.release(connection) }
        return try body(connection)
    }

    private func withConnection<T>(
        from group: ConnectionGroup<SerializedDatabase>, _ body: (Database) throws -> T
    ) throws -> T {
        precondition(
            DispatchQueue.getSpecific(key: queueKey) == nil,
            "DatabasePool.read/write called from inside one of its own closures: use the Database you were given"
        )
        let connection = try group.acquire()
        defer { group.release(connection) }
        return try connection.sync(body)
    }

    private func withConnection<T: Sendable>(
        from group: ConnectionGroup<SerializedDatabase>, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let connection = try await group.acquire()
        defer { group.release(connection) }
        return try await connection.run(body)
    }
}

extension Database {
    /// `wal_checkpoint(TRUNCATE)` on this connection.
    func checkpoint() throws {
        let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        guard status == SQLITE_OK else {
            throw StoreError.lastError(of: handle, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
