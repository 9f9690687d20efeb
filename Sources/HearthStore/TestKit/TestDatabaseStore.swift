import Glibc

/// The store the tests' temporary databases are made in: SQLite files (the default) or, when
/// `HEARTH_TEST_POSTGRES_URL` (``TemporaryPostgresDatabase/environmentVariable``) names a PostgreSQL cluster by the URL of its maintenance database
/// (as `make test`'s PostgreSQL pass sets it, tools/postgres/run-suites), a fresh database of
/// that cluster for each test.
///
/// Read once from the test process's environment: a test kit's only configuration. Tests about
/// SQLite itself (its files, write-ahead log, pragmas, statement statistics, backups of the
/// file) run on SQLite alone and say why:
///
/// ```swift
/// @Test(.enabled(if: TestDatabaseStore.isSQLite, "the bytes of SQLite's files"))
/// ```
public enum TestDatabaseStore: Sendable, Equatable {
    /// A temporary SQLite file per test.
    case sqlite
    /// A database per test in the PostgreSQL cluster whose maintenance database is at `maintenanceURL`.
    case postgreSQL(maintenanceURL: String)

    /// The store of this test run.
    public static let current: TestDatabaseStore = {
        guard let value = getenv(TemporaryPostgresDatabase.environmentVariable), value.pointee != 0 else { return .sqlite }
        return .postgreSQL(maintenanceURL: String(cString: value))
    }()

    /// Whether this run's temporary databases are SQLite files.
    public static var isSQLite: Bool { current == .sqlite }
}
