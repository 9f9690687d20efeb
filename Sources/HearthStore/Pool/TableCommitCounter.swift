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
/// rests on the same hook), so a write through any SQL of this process counts. Commits of other
/// processes count as little as in ``DatabasePool/commitCount``.
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
/// preupdate hook (``TableCommitCounter``), read by the pool before each `COMMIT`.
final class ChangedTables {
    private(set) var names: Set<String> = []
    /// The table the last change was to, so a run of changes to one table costs a comparison each.
    private var last = ""

    /// Registers the hook on the writer connection `handle`; `nil` when the library has no
    /// preupdate hook. The connection must not outlive the returned object.
    static func recording(_ handle: OpaquePointer) -> ChangedTables? {
        let tables = ChangedTables()
        let registered = hearth_sqlite3_preupdate_hook(handle, { context, _, _, _, table, _, _ in
            guard let context, let table else { return }
            Unmanaged<ChangedTables>.fromOpaque(context).takeUnretainedValue().note(table)
        }, Unmanaged.passUnretained(tables).toOpaque())
        return registered == 1 ? tables : nil
    }

    private func note(_ table: UnsafePointer<CChar>) {
        if last.withCString({ strcmp($0, table) }) == 0 { return }
        last = String(cString: table)
        names.insert(last)
    }

    /// The tables changed since the last call, forgotten.
    func take() -> Set<String> {
        defer {
            names.removeAll(keepingCapacity: true)
            last = ""
        }
        return names
    }
}
