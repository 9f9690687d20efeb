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

    private func bound(_ sql: String, _ arguments: StatementArguments) throws -> (String, StatementArguments) {
        let statement = try Key.statements.statement(for: sql)
        return (statement.sql, statement.arguments(arguments, key: key.scopeValue))
    }

    /// Executes one scoped statement, ignoring any result rows.
    /// - Throws: ``StoreError``, `.misuse` when `sql` does not name the scope.
    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        let (sql, arguments) = try bound(sql, arguments)
        try database.execute(sql, arguments)
    }

    /// Calls `body` with each result row in turn.
    func forEachRow(_ sql: String, _ arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        let (sql, arguments) = try bound(sql, arguments)
        try database.forEachRow(sql, arguments, body)
    }

    /// All result rows.
    func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        let (sql, arguments) = try bound(sql, arguments)
        return try database.query(sql, arguments)
    }

    /// The first result row, or `nil` when there is none.
    func queryOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        let (sql, arguments) = try bound(sql, arguments)
        return try database.queryOne(sql, arguments)
    }

    /// The first column of the first row converted to `T`; `nil` when there is no row or it is `NULL`.
    func scalar<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        let (sql, arguments) = try bound(sql, arguments)
        return try database.scalar(type, sql, arguments)
    }

    /// Every result row decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        let (sql, arguments) = try bound(sql, arguments)
        return try database.decode(type, sql, arguments)
    }

    /// The first result row decoded as `T`, or `nil` when there is none.
    func decodeOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        let (sql, arguments) = try bound(sql, arguments)
        return try database.decodeOne(type, sql, arguments)
    }

    /// Rows changed by the last completed `INSERT`, `UPDATE` or `DELETE`.
    var changedRowCount: Int { database.changedRowCount }
}
