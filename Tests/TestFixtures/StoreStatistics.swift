import HearthStore

/// What a test's store has done, whichever store it is (``TestDatabaseStore``): for tests that a
/// read costs a fixed number of statements (no N + 1), counted, never timed.
public enum StoreStatistics {
    /// The statements every connection of `store` has executed so far.
    /// - Throws: `StoreError` `.misuse` for a store that keeps no such count.
    public static func statements(of store: any DatabaseWriter) throws -> Int {
        switch store {
        case let pool as DatabasePool:
            return pool.statistics.readers.statements + pool.statistics.writer.statements
        case let store as PostgresStore:
            return store.statistics.statements
        default:
            throw StoreError(extendedCode: .misuse, message: "\(type(of: store)) keeps no statement count")
        }
    }

    /// The connections `store` has lent so far (for reads and writes): unchanged across a call
    /// means the call read and wrote nothing.
    /// - Throws: `StoreError` `.misuse` for a store that keeps no such count.
    public static func lendings(of store: any DatabaseWriter) throws -> Int {
        switch store {
        case let pool as DatabasePool:
            return pool.statistics.readers.acquisitions + pool.statistics.writer.acquisitions
        case let store as PostgresStore:
            return store.statistics.acquisitions
        default:
            throw StoreError(extendedCode: .misuse, message: "\(type(of: store)) keeps no count of its loans")
        }
    }

    /// The SQLite pool `store` is, for tests of what only SQLite's pool has (the single writer's
    /// loans, its files).
    /// - Throws: `StoreError` `.misuse` on another store: such a test runs on SQLite alone
    ///   (`.enabled(if: TestDatabaseStore.isSQLite, "…")`) and fails rather than passes vacuously.
    public static func sqlitePool(_ store: any DatabaseWriter) throws -> DatabasePool {
        guard let pool = store as? DatabasePool else {
            throw StoreError(extendedCode: .misuse, message: "a test of SQLite's pool ran on \(type(of: store))")
        }
        return pool
    }
}
