import CSQLite
import Synchronization

/// One database connection, SQLite's or PostgreSQL's, handed to the closures of
/// ``DatabaseReader/read(_:)`` and ``DatabaseWriter/write(_:)``.
///
/// Services see it through the seam of docs/architecture.md ("Portable SQL"): its statements
/// (`execute`, `query`, `queryOne`, `forEachRow`, `scalar`, `decode`, `decodeOne`), the
/// changed-row count, ``afterCommit(_:)`` and ``savepoint(_:)`` behave the same on both
/// connections; each statement switches once on the connection's case (no existential).
/// ``executeScript(_:)`` and the transactions are for the stores and the migrator;
/// checkpoints, integrity checks and `PRAGMA`s are SQLite's only.
///
/// A `Database` is confined to its connection's serial queue: use it only inside the
/// closure that received it, never store it or pass it to another thread (it is not
/// `Sendable`, so the compiler refuses most such mistakes). Statements are prepared
/// once and kept in a bounded per-connection cache.
public final class Database {
    /// Whether the connection may write (the pool's single writer) or only read.
    enum Role {
        case writer
        case reader
    }

    /// The connection behind this handle.
    enum Connection {
        /// An SQLite connection (`sqlite3 *`).
        case sqlite(OpaquePointer)
        /// A libpq connection.
        case postgres(PostgresConnection)
    }

    let connection: Connection
    private var statementCache: StatementCache<Statement>
    private var savepointDepth = 0
    /// Work to run once the open transaction commits, in registration order.
    private var commitCallbacks: [() -> Void] = []
    /// Statements executed on this connection, transaction control included: the pool's
    /// statistics read it from other threads, hence atomic (one writer, so never contended).
    let executedStatements = Atomic<Int>(0)
    /// Statements compiled on this connection (misses of its statement cache), read like
    /// ``executedStatements``.
    let preparedStatements = Atomic<Int>(0)
    /// SQLite's `PRAGMA data_version` when this connection last reported it to its pool
    /// (``DatabasePool/changeMark()``); `nil` before the first time.
    var reportedDataVersion: Int64?
    /// The statement of ``dataVersion()``, compiled at its first use.
    private var dataVersionStatement: Statement?
    /// The tables this connection changed rows of, on a writer whose SQLite has a preupdate
    /// hook (``TableCommitCounter``).
    private(set) var changedTables: ChangedTables?

    /// Opens a connection and applies the per-connection settings of `configuration`.
    init(path: String, role: Role, configuration: DatabasePool.Configuration) throws {
        _ = Self.configureSQLite
        var connection: OpaquePointer?
        // NOMUTEX: SQLite's own locking is redundant, the pool serializes access per connection.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard let connection else {
            throw StoreError(extendedCode: ResultCode(rawValue: status), message: "cannot allocate a connection to \(path)")
        }
        guard status == SQLITE_OK else {
            let error = StoreError.lastError(of: connection, sql: nil)
            sqlite3_close_v2(connection)
            throw StoreError(extendedCode: error.extendedCode, message: "cannot open \(path): \(error.message)")
        }
        self.connection = .sqlite(connection)
        self.statementCache = StatementCache(capacity: configuration.statementCacheCapacity)
        sqlite3_extended_result_codes(connection, 1)
        do {
            try configure(role: role, configuration: configuration)
        } catch {
            close()
            throw error
        }
    }

    /// SQLite's process-wide settings, applied once before the first connection opens: memory
    /// statistics off. Hearth reads none of them (`sqlite3_memory_used`, soft heap limits), and
    /// keeping them made every allocation of every connection take one global mutex, which the
    /// event loops' readers contended for (`futex` calls, about one per home screen under load).
    private static let configureSQLite: Void = {
        _ = hearth_sqlite3_disable_memory_statistics()
    }()

    /// Wraps a PostgreSQL connection (``PostgresStore`` opens them).
    init(postgres: PostgresConnection) {
        self.connection = .postgres(postgres)
        self.statementCache = StatementCache(capacity: 0)
    }

    /// The SQLite connection; SQLite-only members (checkpoints, `PRAGMA`s) use it.
    var handle: OpaquePointer {
        guard case .sqlite(let handle) = connection else {
            preconditionFailure("an SQLite-only operation was called on a PostgreSQL connection")
        }
        return handle
    }

    private func configure(role: Role, configuration: DatabasePool.Configuration) throws {
        let milliseconds = configuration.busyTimeout.components.seconds * 1000
            + configuration.busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        if role == .writer {
            let mode = try scalar(String.self, "PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw StoreError(extendedCode: .error, message: "the database refused WAL mode (journal_mode is \(mode ?? "unknown"))")
            }
        }
        try execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        try execute("PRAGMA foreign_keys = ON")
        // Freed space is overwritten with zeros, so deleted and overwritten rows (personal data
        // erased on request) leave no copy in the database file. (Debian's SQLite defaults to it;
        // other builds do not.)
        try execute("PRAGMA secure_delete = ON")
        if role == .writer {
            changedTables = ChangedTables.recording(handle)
        }
        if role == .reader {
            // Readers must never write: a write there would bypass the writer's serialization.
            try execute("PRAGMA query_only = ON")
        }
    }

    /// Finalizes cached statements and closes the connection.
    func close() {
        statementCache.removeAll()
        dataVersionStatement = nil
        switch connection {
        case .sqlite(let handle): sqlite3_close_v2(handle)
        case .postgres(let postgres): postgres.close()
        }
    }

    // MARK: Executing

    /// Executes one statement with positional arguments, ignoring any result rows.
    ///
    /// - Throws: ``StoreError`` if preparation or execution fails, if the SQL holds more
    ///   than one statement, or if the argument count differs from the parameter count.
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        switch connection {
        case .sqlite:
            try withStatement(sql, arguments) { statement in
                while try statement.step() {}
            }
        case .postgres(let postgres):
            _ = try run(postgres, sql, arguments)
        }
    }

    /// Executes a script of several statements without arguments (`sqlite3_exec`),
    /// such as a migration file.
    ///
    /// - Throws: ``StoreError`` carrying the whole script as its SQL.
    public func executeScript(_ sql: String) throws {
        if case .postgres(let postgres) = connection {
            return try postgres.executeScript(sql)
        }
        let handle = self.handle
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw StoreError(
                extendedCode: ResultCode(rawValue: sqlite3_extended_errcode(handle)),
                message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status)),
                sql: sql
            )
        }
    }

    // MARK: Querying

    /// Calls `body` with each result row in turn, without collecting them.
    public func forEachRow(_ sql: String, _ arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        if case .postgres(let postgres) = connection {
            let result = try run(postgres, sql, arguments)
            for index in 0..<result.rowCount { try body(result.row(index)) }
            return
        }
        try withStatement(sql, arguments) { statement in
            guard try statement.step() else { return }
            let columns = statement.columns
            repeat {
                try body(statement.row(columns))
            } while try statement.step()
        }
    }

    /// Calls `body` with each result row in turn while it returns `true`; the rows after the one
    /// it answers `false` for are not computed (a filter in Swift that needs only the first few).
    public func forRows(_ sql: String, _ arguments: StatementArguments = [], while body: (Row) throws -> Bool) throws {
        if case .postgres(let postgres) = connection {
            let result = try run(postgres, sql, arguments)
            for index in 0..<result.rowCount where try !body(result.row(index)) { return }
            return
        }
        try withStatement(sql, arguments) { statement in
            guard try statement.step() else { return }
            let columns = statement.columns
            while try body(statement.row(columns)), try statement.step() {}
        }
    }

    /// All result rows.
    public func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    /// The first result row, or `nil` when there is none; later rows are not computed.
    public func queryOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        if case .postgres(let postgres) = connection {
            let result = try run(postgres, sql, arguments)
            return result.rowCount > 0 ? result.row(0) : nil
        }
        return try withStatement(sql, arguments) { statement in
            guard try statement.step() else { return nil }
            return statement.row(statement.columns)
        }
    }

    /// The first column of the first row converted to `T`; `nil` when there is no row
    /// or the value is `NULL`.
    ///
    /// - Throws: ``StoreError`` `.mismatch` when a non-`NULL` value does not convert.
    public func scalar<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments = []
    ) throws -> T? {
        if case .postgres(let postgres) = connection {
            let result = try run(postgres, sql, arguments)
            guard result.rowCount > 0, !result.columns.names.isEmpty else { return nil }
            let value = result.value(row: 0, column: 0)
            if value.isNull { return nil }
            return try value.converted(to: T.self, column: result.columns.names[0])
        }
        return try withStatement(sql, arguments) { statement in
            guard try statement.step() else { return nil }
            let value = statement.value(at: 0)
            if value.isNull { return nil }
            return try value.converted(to: T.self, column: String(cString: sqlite3_column_name(statement.handle, 0)))
        }
    }

    /// SQLite's `PRAGMA data_version` (``DatabasePool/changeMark()``) through a statement kept
    /// for it alone: it runs before every kept chore list is answered, and looking it up in the
    /// statement cache cost about as much as SQLite's work for it. Counted like every statement.
    func dataVersion() throws -> Int64 {
        let statement: Statement
        if let kept = dataVersionStatement {
            statement = kept
        } else {
            statement = try prepare("PRAGMA data_version")
            preparedStatements.add(1, ordering: .relaxed)
            dataVersionStatement = statement
        }
        executedStatements.add(1, ordering: .relaxed)
        defer { statement.reset() }
        guard try statement.step() else {
            throw StoreError(extendedCode: .error, message: "PRAGMA data_version returned no row")
        }
        return sqlite3_column_int64(statement.handle, 0)
    }

    /// Every result row decoded as `T` (see ``Row/decode(_:)``).
    public func decode<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        var values: [T] = []
        try forEachRow(sql, arguments) { values.append(try $0.decode(T.self)) }
        return values
    }

    /// The first result row decoded as `T`, or `nil` when there is none.
    public func decodeOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try queryOne(sql, arguments)?.decode(T.self)
    }

    /// Every result row read as the record `T` (see ``FetchableRecord``), without `Codable`.
    public func decode<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        var records: [T] = []
        try forEachRecord(T.self, sql, arguments) { record in
            records.append(record)
            return true
        }
        return records
    }

    /// The first result row read as the record `T`, or `nil` when there is none; later rows
    /// are not computed.
    public func decodeOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        var first: T?
        try forEachRecord(T.self, sql, arguments) { record in
            first = record
            return false
        }
        return first
    }

    /// Calls `body` with each result row read as `T` until it returns `false`. Where the
    /// record's columns are in the result is looked up once per statement, not per row.
    private func forEachRecord<T: FetchableRecord>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments, _ body: (T) throws -> Bool
    ) throws {
        if case .postgres(let postgres) = connection {
            let result = try run(postgres, sql, arguments)
            guard result.rowCount > 0 else { return }
            let layout = result.columns.layout(of: T.columns)
            for index in 0..<result.rowCount {
                guard try body(T(row: RecordRow(row: result.row(index), columns: T.columns, layout: layout))) else { return }
            }
            return
        }
        try withStatement(sql, arguments) { statement in
            guard try statement.step() else { return }
            let columns = statement.columns
            let layout = columns.layout(of: T.columns)
            repeat {
                guard try body(T(row: RecordRow(row: statement.row(columns), columns: T.columns, layout: layout))) else { return }
            } while try statement.step()
        }
    }

    // MARK: State

    /// Rows changed by the last completed `INSERT`, `UPDATE` or `DELETE`.
    public var changedRowCount: Int {
        switch connection {
        case .sqlite(let handle): Int(sqlite3_changes64(handle))
        case .postgres(let postgres): postgres.changedRowCount
        }
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        switch connection {
        case .sqlite(let handle): sqlite3_get_autocommit(handle) == 0
        case .postgres(let postgres): postgres.isInTransaction
        }
    }

    /// Hit, miss and eviction counters of this connection's statement cache.
    public var statementCacheStatistics: StatementCacheStatistics {
        switch connection {
        case .sqlite: statementCache.statistics
        case .postgres(let postgres): postgres.statementCacheStatistics
        }
    }

    // MARK: Transactions

    /// How a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Locks on first access: the right choice for reads.
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so the transaction never fails halfway on a lock upgrade.
        case immediate = "IMMEDIATE"
        /// Takes the write lock at once; outside WAL mode it also keeps readers out.
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws
    /// (and rethrows). ``DatabasePool/write(_:)`` already does this; use it inside
    /// ``DatabasePool/writeWithoutTransaction(_:)``.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try transaction(beginning: "BEGIN \(kind.rawValue) TRANSACTION", body)
    }

    /// Runs `body` in the transaction `begin` opens (`BEGIN ISOLATION LEVEL SERIALIZABLE` on
    /// PostgreSQL), committing, rolling back and running commit callbacks as
    /// ``transaction(_:_:)`` does.
    ///
    /// - Throws: What `body` throws, or ``StoreError``; on PostgreSQL also when `body` caught a
    ///   failed statement and returned: the transaction is then aborted and was rolled back.
    func transaction<T>(beginning begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        // Left over from a transaction begun and committed by hand: not ours to run.
        commitCallbacks = []
        let result: T
        do {
            result = try body()
            try checkNotFailed()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try execute(Self.commitSQL)
        } catch {
            rollbackIfNeeded()
            throw error
        }
        runCommitCallbacks()
        return result
    }

    /// The statement that commits a transaction opened by ``transaction(_:_:)``.
    static let commitSQL = "COMMIT TRANSACTION"

    /// Registers `body` to run right after the open transaction commits; it is dropped if
    /// the transaction rolls back, or if the savepoint it was registered in is undone.
    ///
    /// Callbacks run in registration order on this connection's queue, after `COMMIT`
    /// succeeded and before ``DatabasePool/write(_:)`` hands the writer to the next
    /// caller. So the callbacks of successive write transactions run in commit order,
    /// which is what publishing committed changes in order needs. They must be quick and
    /// must not use the database (the connection is still lent to this write).
    ///
    /// Applies to transactions opened with ``transaction(_:_:)`` (which the pool's
    /// `write` uses) or an outermost ``savepoint(_:)``; not to a `BEGIN` executed by hand.
    public func afterCommit(_ body: @escaping () -> Void) {
        precondition(isInTransaction, "afterCommit needs an open transaction")
        commitCallbacks.append(body)
    }

    private func runCommitCallbacks() {
        let callbacks = commitCallbacks
        commitCallbacks = []
        for callback in callbacks {
            callback()
        }
    }

    /// Runs `body` inside a savepoint, a nested transaction: its changes are released into
    /// the enclosing transaction when it returns, and undone alone when it throws (the
    /// error is rethrown and the enclosing transaction goes on).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        if case .postgres = connection, !isInTransaction {
            // PostgreSQL has savepoints inside transaction blocks only.
            return try transaction(beginning: "BEGIN") { try savepoint(body) }
        }
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "hearth_savepoint_\(savepointDepth)"
        // Outside a transaction, SAVEPOINT opens one and its RELEASE commits it.
        let isOutermost = !isInTransaction
        try execute("SAVEPOINT \(name)")
        if isOutermost {
            commitCallbacks = []
        }
        let callbackMark = commitCallbacks.count
        let result: T
        do {
            result = try body()
        } catch {
            // ROLLBACK TO keeps the savepoint open; RELEASE then closes it. If SQLite already
            // rolled the whole transaction back (disk full, interrupt) there is nothing to undo.
            if isInTransaction {
                try? execute("ROLLBACK TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
            }
            commitCallbacks.removeSubrange(min(callbackMark, commitCallbacks.count)...)
            throw error
        }
        do {
            try execute("RELEASE SAVEPOINT \(name)")
        } catch {
            if isOutermost {
                rollbackIfNeeded()
            }
            throw error
        }
        if isOutermost {
            runCommitCallbacks()
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so.
    ///
    /// A failed rollback leaves nothing better to do than report the original error; SQLite
    /// rolls back any transaction still open when the connection is next used or closed.
    func rollbackIfNeeded() {
        commitCallbacks = []
        if isInTransaction {
            try? execute("ROLLBACK TRANSACTION")
        }
    }

    /// Throws when the PostgreSQL transaction failed (a statement's error was caught inside
    /// it): its `COMMIT` would silently roll back.
    private func checkNotFailed() throws {
        guard case .postgres(let postgres) = connection, postgres.isInFailedTransaction else { return }
        throw StoreError(
            extendedCode: .abort,
            message: "a statement of the transaction failed and its error was caught; PostgreSQL aborted the transaction, so it was rolled back"
        )
    }

    // MARK: Statements

    /// Runs one statement on the PostgreSQL connection, preparing it on first use, and once
    /// more (prepared anew) when its cached plan went stale outside a transaction
    /// (``PostgresConnection/forgetsStalePlan(after:sql:)``).
    private func run(_ postgres: PostgresConnection, _ sql: String, _ arguments: StatementArguments) throws -> PostgresResult {
        do {
            return try runPrepared(postgres, sql, arguments)
        } catch let error as StoreError where postgres.forgetsStalePlan(after: error, sql: sql) {
            return try runPrepared(postgres, sql, arguments)
        }
    }

    /// Runs one statement on the PostgreSQL connection, preparing it if it is not cached.
    private func runPrepared(_ postgres: PostgresConnection, _ sql: String, _ arguments: StatementArguments) throws -> PostgresResult {
        let (statement, isNew) = try postgres.statement(for: sql)
        if isNew {
            preparedStatements.add(1, ordering: .relaxed)
        }
        executedStatements.add(1, ordering: .relaxed)
        return try postgres.execute(statement, arguments)
    }

    /// Runs `body` with a bound statement for `sql`, from the cache when possible, and
    /// leaves the statement reset with its bindings cleared whatever happens.
    private func withStatement<T>(_ sql: String, _ arguments: StatementArguments, _ body: (Statement) throws -> T) throws -> T {
        let statement: Statement
        if let cached = statementCache.statement(for: sql) {
            statement = cached
        } else {
            statement = try prepare(sql)
            preparedStatements.add(1, ordering: .relaxed)
            if !statementCache.contains(sql) {
                statementCache.insert(statement)
            }
        }
        statement.isInUse = true
        executedStatements.add(1, ordering: .relaxed)
        defer {
            statement.reset()
            statement.isInUse = false
        }
        try statement.bind(arguments)
        return try body(statement)
    }

    /// Compiles exactly one statement; trailing whitespace and comments are allowed.
    private func prepare(_ sql: String) throws -> Statement {
        try sql.withCString { start in
            var handle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
            guard sqlite3_prepare_v3(self.handle, start, -1, flags, &handle, &tail) == SQLITE_OK else {
                throw StoreError.lastError(of: self.handle, sql: sql)
            }
            guard let handle else {
                throw StoreError(extendedCode: .misuse, message: "the SQL holds no statement", sql: sql)
            }
            let statement = Statement(handle: handle, sql: sql, connection: self.handle)
            if let tail, tail.pointee != 0 {
                var extra: OpaquePointer?
                sqlite3_prepare_v3(self.handle, tail, -1, 0, &extra, nil)
                if let extra {
                    sqlite3_finalize(extra)
                    throw StoreError(
                        extendedCode: .misuse,
                        message: "the SQL holds more than one statement; use executeScript for scripts",
                        sql: sql
                    )
                }
            }
            return statement
        }
    }
}

extension Database {
    /// The SQL dialect of a connection, for the few store functions and migrator steps that
    /// differ (docs/architecture.md, "Where dialect SQL lives"); services never branch on it.
    public enum Dialect: Sendable, Hashable {
        /// SQLite (the embedded default).
        case sqlite
        /// PostgreSQL.
        case postgresql
    }

    /// This connection's dialect.
    public var dialect: Dialect {
        switch connection {
        case .sqlite: .sqlite
        case .postgres: .postgresql
        }
    }
}
