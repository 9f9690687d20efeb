import CSQLite
import Glibc
import Synchronization

/// A count of the commits that changed some of a few tables, odd while one is in flight: what
/// ``DatabasePool/commitCount`` is to every commit, this is to the commits that wrote a row of
/// ``tables`` (``DatabaseWriter/commitCounter(touching:)``). A ``CommitScopedCache`` of values
/// read from those tables alone keeps them across the commits that changed only others (a chore
/// done leaves every account as it was).
///
/// It is exact as the commit count is: it moves right before the `COMMIT` of a write that changed
/// a row of the tables and right after it, and around every write outside a transaction, which
/// may change anything. Which tables a write changed, SQLite says through its preupdate hook,
/// called before every row an `INSERT`, `UPDATE` or `DELETE` changes, those of triggers, foreign
/// keys' actions, `REPLACE` and a `DELETE` of a whole table included (SQLite's session extension
/// rests on the same hook), so a write through any SQL of this process counts; a write that
/// changes the schema counts for every table (``ChangedTables``). Commits of other processes
/// count as little as in ``DatabasePool/commitCount``.
public final class TableCommitCounter: Sendable {
    /// The tables, as their `CREATE TABLE` names them.
    public let tables: Set<String>
    private let count = Atomic<UInt64>(0)

    init(tables: Set<String>) {
        self.tables = tables
    }

    /// Twice the commits that changed the tables, odd while one is committing.
    public var value: UInt64 {
        count.load(ordering: .acquiring)
    }

    /// Moves the count by one: before a commit (then odd) and after it.
    func advance() {
        count.add(1, ordering: .releasing)
    }
}

/// The tables a writer connection changed rows of since it was last asked: fed by SQLite's
/// preupdate hook (``TableCommitCounter``), read by the pool before each `COMMIT`. A change to
/// the schema (`CREATE`, `ALTER`, `DROP`: a dropped table's rows go without the hook, a new
/// column's default shows in every row) may change any table: SQLite's authorizer, which sees
/// every statement compiled on the connection (and a cached statement is compiled again after
/// any change to the schema), tells of one.
final class ChangedTables {
    private var names: Set<String> = []
    /// The table the last change was to, so a run of changes to one table costs a comparison each.
    private var last = ""
    /// Whether a statement that changes the schema was compiled.
    private var schemaChanged = false

    /// The authorizer's action codes of statements that change the schema.
    private static let schemaActions: Set<Int32> = [
        SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
        SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
        SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
        SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
        SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE,
    ]

    /// Registers the hooks on the writer connection `handle`; `nil` when the library has no
    /// preupdate hook. The connection must not outlive the returned object.
    static func recording(_ handle: OpaquePointer) -> ChangedTables? {
        let tables = ChangedTables()
        let context = Unmanaged.passUnretained(tables).toOpaque()
        let registered = hearth_sqlite3_preupdate_hook(handle, { context, _, _, _, table, _, _ in
            guard let context, let table else { return }
            Unmanaged<ChangedTables>.fromOpaque(context).takeUnretainedValue().note(table)
        }, context)
        guard registered == 1 else { return nil }
        sqlite3_set_authorizer(handle, { context, action, _, _, _, _ in
            if let context, ChangedTables.schemaActions.contains(action) {
                Unmanaged<ChangedTables>.fromOpaque(context).takeUnretainedValue().schemaChanged = true
            }
            return SQLITE_OK
        }, context)
        return tables
    }

    private func note(_ table: UnsafePointer<CChar>) {
        if last.withCString({ strcmp($0, table) }) == 0 { return }
        last = String(cString: table)
        names.insert(last)
    }

    /// The tables changed since the last call, forgotten; `nil` when the schema may have
    /// changed (then any table may have).
    func take() -> Set<String>? {
        defer {
            names.removeAll(keepingCapacity: true)
            last = ""
            schemaChanged = false
        }
        return schemaChanged ? nil : names
    }
}
