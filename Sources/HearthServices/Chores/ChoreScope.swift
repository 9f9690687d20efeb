import HearthStore

/// The chore rows one ``ChoreAccess`` grants, in one transaction: a household's (through its
/// ``HouseholdScope``) or one account's personal ones (through its ``OwnerScope``).
///
/// Every chore table (`chores`, `chore_assignees`, `chore_steps`, `chore_tags`, `tags`) has both
/// `household_id` and `user_id`, exactly one of them set, so one statement text serves both owners.
/// It names the owner with two tokens, which the scope turns into its own marker:
/// - `{scope}` is the filter, `household_id = {household}` or `user_id = {owner}`;
/// - `{scope_ids}` are the values of `(household_id, user_id)` in an insert,
///   `{household}, NULL` or `NULL, {owner}`.
/// A statement without a token names no owner and is refused by the scope it would run under.
struct ChoreScope {
    /// What the scope grants.
    let access: ChoreAccess
    /// The transaction's connection, for what the scope does not own (the change log).
    let database: Database

    init(_ access: ChoreAccess, _ database: Database) {
        self.access = access
        self.database = database
    }

    /// The household's scope, for household-only tables (members, grants); `nil` for personal chores.
    var household: HouseholdScope? { access.household.map { HouseholdScope($0, database) } }

    /// `sql` run under the owner's scope.
    private func run<T>(_ sql: String, _ household: (HouseholdScope, String) throws -> T, _ personal: (OwnerScope, String) throws -> T) throws -> T {
        switch access.grant {
        case .household(let granted):
            return try household(HouseholdScope(granted, database), ChoreScopeTexts.household.text(for: sql))
        case .personal(let owner), .shared(let owner, _):
            return try personal(OwnerScope(owner, database), ChoreScopeTexts.personal.text(for: sql))
        }
    }

    /// Executes one statement, ignoring any result rows.
    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try run(sql, { try $0.execute($1, arguments) }, { try $0.execute($1, arguments) })
    }

    /// All result rows.
    func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try run(sql, { try $0.query($1, arguments) }, { try $0.query($1, arguments) })
    }

    /// The first result row, or `nil`.
    func queryOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try run(sql, { try $0.queryOne($1, arguments) }, { try $0.queryOne($1, arguments) })
    }

    /// The first column of the first row as `T`; `nil` when there is no row or it is `NULL`.
    func scalar<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try run(sql, { try $0.scalar(type, $1, arguments) }, { try $0.scalar(type, $1, arguments) })
    }

    /// Every result row decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        try run(sql, { try $0.decode(type, $1, arguments) }, { try $0.decode(type, $1, arguments) })
    }

    /// The first result row decoded as `T`, or `nil`.
    func decodeOne<T: Decodable>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try run(sql, { try $0.decodeOne(type, $1, arguments) }, { try $0.decodeOne(type, $1, arguments) })
    }

    /// Every result row read as the record `T` (``FetchableRecord``).
    func decode<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> [T] {
        try run(sql, { try $0.decode(type, $1, arguments) }, { try $0.decode(type, $1, arguments) })
    }

    /// The first result row read as the record `T`, or `nil`.
    func decodeOne<T: FetchableRecord>(_ type: T.Type, _ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try run(sql, { try $0.decodeOne(type, $1, arguments) }, { try $0.decodeOne(type, $1, arguments) })
    }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    var changedRowCount: Int { database.changedRowCount }
}

extension ChoreScope {
    /// The ids of chore `choreID`'s instances and completions, in id order: what its deletion or a
    /// share gained or lost touches besides the chore (offline sync's rows name them).
    func history(ofChore choreID: String) throws -> [String] {
        try query(
            "SELECT id FROM chore_instances WHERE chore_id = ? AND {scope} UNION SELECT id FROM chore_completions WHERE chore_id = ? AND {scope} ORDER BY id",
            [choreID, choreID]
        ).map { row -> String in try row["id"] }
    }
}
