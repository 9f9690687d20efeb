import FoundationEssentials
import Glibc

/// Test kit: databases in fresh temporary directories that are removed afterwards.
///
/// ```swift
/// try TemporaryDatabase.withPool { pool in
///     try pool.write { db in try db.execute("CREATE TABLE t (x)") }
/// }
/// ```
///
/// Each call gets its own directory, so tests run in parallel without sharing state.
/// ``withWriter(_:configuration:_:)`` makes the database in this run's store
/// (``TestDatabaseStore``), SQLite or PostgreSQL; the other functions make SQLite files.
public enum TemporaryDatabase {
    /// How a test's database is set up before the test sees it (the schema's migrations),
    /// done once per PostgreSQL cluster into a template database the tests' databases are copied
    /// from, and on each new SQLite file (where it is cheap).
    public struct Preparation: Sendable {
        /// Names the prepared state, for the template's name: it must change whenever what
        /// `prepare` does changes (a digest of the migrations' checksums).
        public let identity: String
        /// Prepares an empty database.
        public let prepare: @Sendable (any DatabaseWriter) throws -> Void

        /// A preparation named `identity` that runs `prepare`.
        public init(identity: String, prepare: @escaping @Sendable (any DatabaseWriter) throws -> Void) {
            self.identity = identity
            self.prepare = prepare
        }
    }

    /// Calls `body` with a writer on a new database of this run's store (``TestDatabaseStore``),
    /// prepared by `preparation`, then closes it and removes it (the SQLite file, or the
    /// PostgreSQL database). `configuration` sets the SQLite pool's; a PostgreSQL store gets as
    /// many connections as that pool has (its readers and its writer).
    public static func withWriter<T>(
        _ preparation: Preparation, configuration: DatabasePool.Configuration = DatabasePool.Configuration(),
        _ body: (any DatabaseWriter) async throws -> T
    ) async throws -> T {
        switch TestDatabaseStore.current {
        case .sqlite:
            return try await withPool(configuration: configuration) { pool in
                try preparation.prepare(pool)
                return try await body(pool)
            }
        case .postgreSQL:
            return try await TemporaryPostgresDatabase.withStore(prepared: preparation, maxConnections: configuration.readerCount + 1, body)
        }
    }

    /// Calls `body` with the path of a not-yet-existing database file in a new temporary
    /// directory, then removes the directory (with the database, its WAL and shm files).
    /// Use it to open, close and reopen pools on the same file.
    public static func withPath<T>(_ body: (String) throws -> T) throws -> T {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory + "/test.sqlite")
    }

    /// The `async` form of ``withPath(_:)-(String)->T``.
    public static func withPath<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory + "/test.sqlite")
    }

    /// Calls `body` with a pool on a new temporary database, then closes the pool and
    /// removes the files.
    public static func withPool<T>(
        configuration: DatabasePool.Configuration = DatabasePool.Configuration(),
        _ body: (DatabasePool) throws -> T
    ) throws -> T {
        try withPath { path in
            let pool = try DatabasePool(path: path, configuration: configuration)
            defer { pool.close() }
            return try body(pool)
        }
    }

    /// The `async` form of ``withPool(configuration:_:)-(_,(DatabasePool)->T)``.
    public static func withPool<T>(
        configuration: DatabasePool.Configuration = DatabasePool.Configuration(),
        _ body: (DatabasePool) async throws -> T
    ) async throws -> T {
        try await withPath { path in
            let pool = try DatabasePool(path: path, configuration: configuration)
            defer { pool.close() }
            return try await body(pool)
        }
    }

    /// Calls `body` with a store on the existing database at `location` (what `--database`
    /// names: a `postgres://` or `postgresql://` URL, or a SQLite file's path), then closes it:
    /// how a test reads or changes what a server process stored.
    public static func withExisting<T>(_ location: String, _ body: (any DatabaseWriter) throws -> T) throws -> T {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            let store = try PostgresStore(configuration: PostgresStore.Configuration(url: location, maxConnections: 2))
            defer { store.close() }
            return try body(store)
        }
        let pool = try DatabasePool(path: location)
        defer { pool.close() }
        return try body(pool)
    }

    private static func makeDirectory() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/hearth-store-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw StoreError(extendedCode: .cantOpen, message: "cannot create a temporary directory (errno \(errno))")
        }
        return String(cString: created)
    }
}
