import HearthStore

/// The rows of one scope (a household, an account) inside one transaction: every statement it
/// runs names the scope with its key's marker, and the scope binds the key itself
/// (``ScopeKey``), so a query of scoped rows cannot forget the filter or filter on another id.
///
/// ```swift
/// let scope = HouseholdScope(access, database)
/// let admins = try scope.scalar(Int.self, "SELECT count(*) FROM members WHERE household_id = {household} AND role = ?", ["admin"])
/// ```
///
/// Made from a checked key and the transaction's connection, and used only inside the closure
/// that received that connection (like `Database`, it is not `Sendable`). Its statements are
/// those of `Database`, with the same arguments apart from the key. What is not scoped (the change
/// log, analytics, accounts) is written through ``database``.
struct ScopedDatabase<Key: ScopeKey> {
    /// What the scope binds.
    let key: Key
    /// The transaction's connection, for what the scope does not own.
    let database: Database

    /// The scope of `key` in the transaction of `database`.
    init(_ key: Key, _ database: Database) {
        self.key = key
        self.database = database
    }

    /// Calls `run` with `sql` rewritten for the store and `arguments` with the key bound.
    private func bound<T>(_ sql: String, _ arguments: StatementArguments, _ run: (String, StatementArguments) throws -> T) throws -> T {
        let statement = try Key.statements.statement(for: sql)
        return try run(statement.sql, statement.arguments(arguments, key: key.scopeValue))
    }

    /// Executes one scoped statement, ignoring any result rows.
    /// - Throws: ``StoreError``, `.misuse` when `sql` does not name the scope.
    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try bound(sql, arguments) { try database.execute($0, $1) }
    }

    /// Calls `body` with each result row in turn.
    func forEachRow(_ sql: String, _ arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        try bound(sql, arguments) { try database.forEachRow($0, $1, body) }
    }

    /// Calls `body` with each result row in turn while it returns `true`.
    func forRows(_ sql: String, _ arguments: StatementArguments = [], while body: (Row) throws -> Bool) throws {
        try bound(sql, arguments) { try database.forRows($0, $1, while: body) }
    }

    /// All result rows.
    func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try bound(sql, arguments) { try database.query($0, $1) }
    }

    /// The first result row, or `nil` when there is none.
    func queryOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try bound(sql, arguments) { try database.queryOne($0, $1) }
    }

    /// The first column of the first row converted to `T`; `nil` when there is no row or it is `NULL`.
    func scalar<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try bound(sql, arguments) { try database.scalar(type, $0, $1) }
    }

    /// Every result row decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        try bound(sql, arguments) { try database.decode(type, $0, $1) }
    }

    /// The first result row decoded as `T`, or `nil` when there is none.
    func decodeOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try bound(sql, arguments) { try database.decodeOne(type, $0, $1) }
    }

    /// Every result row read as the record `T` (``FetchableRecord``).
    func decode<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        try bound(sql, arguments) { try database.decode(type, $0, $1) }
    }

    /// The first result row read as the record `T`, or `nil` when there is none.
    func decodeOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try bound(sql, arguments) { try database.decodeOne(type, $0, $1) }
    }

    /// Rows changed by the last completed `INSERT`, `UPDATE` or `DELETE`.
    var changedRowCount: Int { database.changedRowCount }
}
