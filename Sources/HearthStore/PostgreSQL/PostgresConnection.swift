import CPostgreSQL
import Glibc

/// One libpq connection: statements prepared once and cached, `?` placeholders rewritten,
/// arguments sent as text (blobs as binary `bytea`), results decoded into ``DatabaseValue``s.
///
/// The PostgreSQL case of ``Database``'s connection; confined like it to the serial queue of
/// its pool slot, never shared between threads. A connection made with
/// ``init(lazilyConnectingTo:password:statementCacheCapacity:)`` reaches the server on its
/// first statement (or ``reconnectIfBroken()``), so a pool holds only the sessions it used.
final class PostgresConnection {
    /// The libpq connection; `nil` until a lazily made connection first reaches the server.
    private var handle: OpaquePointer?
    private let url: String
    private let password: String?
    private var statementCache: StatementCache<PostgresStatement>
    /// Server-side statements evicted from the cache, deallocated when no transaction is open
    /// (`DEALLOCATE` fails inside a transaction that already failed).
    private var pendingDeallocations: [String] = []
    private var nextStatementNumber = 0
    /// Rows changed by the last command (`PQcmdTuples`).
    private(set) var changedRowCount = 0

    /// Connects with a libpq connection string or `postgres://` URL; `password`, when given,
    /// overrides any in the URL (``PostgresStore/Configuration/password``, read from `--database-password-file`).
    ///
    /// - Throws: ``StoreError`` `.cantOpen` with libpq's message (which never holds the password).
    convenience init(url: String, password: String?, statementCacheCapacity: Int) throws {
        self.init(lazilyConnectingTo: url, password: password, statementCacheCapacity: statementCacheCapacity)
        _ = try connected()
    }

    /// A connection to `url` that reaches the server when first used: its first statement
    /// (or ``reconnectIfBroken()``) connects, and throws what ``init(url:password:statementCacheCapacity:)`` would.
    init(lazilyConnectingTo url: String, password: String?, statementCacheCapacity: Int) {
        self.url = url
        self.password = password
        self.statementCache = StatementCache(capacity: statementCacheCapacity)
    }

    /// The libpq connection, connecting first if this connection never did.
    private func connected() throws -> OpaquePointer {
        if let handle { return handle }
        let connection = try Self.connect(url: url, password: password)
        handle = connection
        return connection
    }

    /// A new libpq connection to `url`.
    private static func connect(url: String, password: String?) throws -> OpaquePointer {
        var keywords = ["dbname", "fallback_application_name"]
        var values = [url, "hearth"]
        if let password {
            keywords.append("password")
            values.append(password)
        }
        let connection = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw StoreError(extendedCode: .cantOpen, message: "cannot allocate a PostgreSQL connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = trimmed(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw StoreError(extendedCode: .cantOpen, message: "cannot connect to PostgreSQL: \(message)", sqlState: "08001")
        }
        // Notices ("relation already exists, skipping") would go to standard error.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        return connection
    }

    /// Drops the cached statements and closes the connection (if it ever opened); its next
    /// statement (or ``reconnectIfBroken()``) opens a new one.
    func close() {
        statementCache.removeAll()
        pendingDeallocations = []
        if let handle {
            PQfinish(handle)
        }
        handle = nil
    }

    /// Whether the connection is inside a transaction block, failed or not.
    var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the open transaction failed: PostgreSQL then ignores every command but a rollback.
    var isInFailedTransaction: Bool {
        handle.map { PQtransactionStatus($0) == PQTRANS_INERROR } ?? false
    }

    /// Reconnects if the server dropped the connection (a restart, a failover, an idle timeout),
    /// forgetting the statements prepared on the old session, and connects one that never did.
    /// Call it between transactions only.
    func reconnectIfBroken() throws {
        let handle = try connected()
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        statementCache.removeAll()
        pendingDeallocations = []
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError(
                extendedCode: .cantOpen, message: "cannot reconnect to PostgreSQL: \(Self.trimmed(String(cString: PQerrorMessage(handle))))",
                sqlState: "08001")
        }
    }

    /// Hit, miss and eviction counters of the statement cache.
    var statementCacheStatistics: StatementCacheStatistics {
        statementCache.statistics
    }

    // MARK: Statements

    /// The prepared statement for `sql`, from the cache or prepared now (`isNew`).
    func statement(for sql: String) throws -> (statement: PostgresStatement, isNew: Bool) {
        if let cached = statementCache.statement(for: sql) {
            return (cached, false)
        }
        let handle = try connected()
        if !pendingDeallocations.isEmpty, !isInTransaction {
            for name in pendingDeallocations {
                PQclear(PQexec(handle, "DEALLOCATE \(name)"))
            }
            pendingDeallocations = []
        }
        let (rewritten, parameterCount) = PlaceholderRewriter.rewrite(sql)
        nextStatementNumber += 1
        let name = "hearth_\(nextStatementNumber)"
        let result = PQprepare(handle, name, rewritten, Int32(parameterCount), nil)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw error(of: result, sql: sql, on: handle)
        }
        let statement = PostgresStatement(name: name, sql: sql, parameterCount: parameterCount)
        if let evicted = statementCache.insert(statement) {
            pendingDeallocations.append(evicted.name)
        }
        return (statement, true)
    }

    /// After `error` from running `sql`: when it says the statement's cached plan is stale
    /// (another session, such as an instance migrating, altered what the statement reads so its
    /// result type changed), drops the statement from the cache, to be deallocated and prepared
    /// again on its next use, and answers whether to run it again now: only outside a
    /// transaction block, as the error aborted any open one (the store runs that transaction
    /// again instead, ``PostgresStore``).
    func forgetsStalePlan(after error: StoreError, sql: String) -> Bool {
        guard error.isStaleCachedPlan, let stale = statementCache.remove(sql) else { return false }
        pendingDeallocations.append(stale.name)
        return !isInTransaction
    }

    /// Executes a prepared statement with `arguments` and returns its result.
    ///
    /// - Throws: ``StoreError``: `.range` when the argument count differs from the placeholder
    ///   count, or what the server answered.
    func execute(_ statement: PostgresStatement, _ arguments: StatementArguments) throws -> PostgresResult {
        guard arguments.values.count == statement.parameterCount else {
            throw StoreError(
                extendedCode: .range,
                message: "the statement has \(statement.parameterCount) parameter(s) but \(arguments.values.count) argument(s) were given",
                sql: statement.sql
            )
        }
        let handle = try connected()
        let encoded = PostgresParameters(arguments)
        let result = encoded.withPointers { values, lengths, formats in
            PQexecPrepared(handle, statement.name, Int32(statement.parameterCount), values, lengths, formats, 0)
        }
        return try checked(result, sql: statement.sql, statement: statement, on: handle)
    }

    /// Runs a script of several statements without arguments (the simple query protocol), such
    /// as a migration file.
    func executeScript(_ sql: String) throws {
        let handle = try connected()
        _ = try checked(PQexec(handle, sql), sql: sql, statement: nil, on: handle)
    }

    /// The result, or the error it reports (the result is then cleared).
    private func checked(_ result: OpaquePointer?, sql: String, statement: PostgresStatement?, on handle: OpaquePointer) throws -> PostgresResult {
        let status = PQresultStatus(result)
        guard let result, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            defer { PQclear(result) }
            throw error(of: result, sql: sql, on: handle)
        }
        let changed = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        changedRowCount = changed
        return PostgresResult(result, statement: statement)
    }

    /// The error a result (or, without one, the connection `handle`) reports.
    private func error(of result: OpaquePointer?, sql: String, on handle: OpaquePointer) -> StoreError {
        guard let result, let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) else {
            let message = Self.trimmed(String(cString: PQerrorMessage(handle)))
            return StoreError(extendedCode: .ioError, message: "PostgreSQL connection failed: \(message)", sql: sql, sqlState: "08006")
        }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let detail = PQresultErrorField(result, Int32(UInt8(ascii: "D"))).map { " (\(String(cString: $0)))" } ?? ""
        return StoreError(postgresState: String(cString: state), message: (primary ?? "unknown error") + detail, sql: sql)
    }

    static func trimmed(_ message: String) -> String {
        var text = Substring(message)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}

/// A statement prepared on one ``PostgresConnection`` under a generated name.
final class PostgresStatement: CachedStatement {
    let name: String
    let sql: String
    let parameterCount: Int
    /// Results are read whole before the next statement runs, so a statement is never lent twice.
    let isInUse = false
    /// The result's column names and their lookup, built from the first result.
    var columns: ColumnIndex?

    init(name: String, sql: String, parameterCount: Int) {
        self.name = name
        self.sql = sql
        self.parameterCount = parameterCount
    }
}

/// Calls `body` with a NULL-terminated array of C strings (as libpq's `PQconnectdbParams` reads
/// its keywords and values), valid only during the call.
func withCStringArray<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
