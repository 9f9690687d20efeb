import Foundation
import HearthServices
import HearthStore

/// Temporary databases with the repository's migrations applied, as the binary applies
/// its embedded copies at start-up.
public enum MigratedDatabase {
    /// Every `migrations/NNNN_name.sql` of the repository, in order: SQLite's.
    public static let migrations: [Migration] = {
        do {
            return try read(directory: "migrations")
        } catch {
            fatalError("cannot read the migrations: \(error)")
        }
    }()

    /// Every `migrations/postgresql/NNNN_name.sql` of the repository, in order: PostgreSQL's.
    public static func postgreSQLMigrations() throws -> [Migration] {
        try read(directory: "migrations/postgresql")
    }

    /// The `.sql` files of `directory` (relative to the repository), in file-name order.
    private static func read(directory relativePath: String) throws -> [Migration] {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../" + relativePath).standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted()
        return try names.map { name in
            try Migration(fileName: name, sql: String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// The migrations applied to a test's database in this run's store (``TestDatabaseStore``):
    /// a template database per PostgreSQL cluster, each SQLite file anew.
    public static let preparation = TemporaryDatabase.Preparation(
        identity: ([migrations] + [(try? postgreSQLMigrations()) ?? []]).map { $0.map(\.checksum).joined(separator: " ") }.joined(separator: " / ")
    ) { store in
        switch store {
        case let pool as DatabasePool: try Migrator(migrations: migrations).migrate(pool)
        case let store as PostgresStore: try Migrator(migrations: postgreSQLMigrations()).migrate(store)
        default: throw StoreError(extendedCode: .misuse, message: "no migrations for \(type(of: store))")
        }
    }

    /// Calls `body` with a migrated database of this run's store (``TestDatabaseStore``): SQLite
    /// (with `readerCount` readers) or PostgreSQL.
    public static func withDatabase<T>(readerCount: Int = 4, _ body: (any DatabaseWriter) async throws -> T) async throws -> T {
        try await TemporaryDatabase.withWriter(preparation, configuration: DatabasePool.Configuration(readerCount: readerCount), body)
    }

    /// Calls `body` with a migrated database of this run's store and a change log publishing
    /// as the server's does on that store (`InstanceCoordination`): on SQLite, to a fresh bus
    /// straight from each commit; on PostgreSQL, through a ``ChangeLogRelay`` feeding the fresh
    /// bus from the log, relaying until `body` returns. Concurrent PostgreSQL transactions run
    /// their commit callbacks in any order, so publishing from them would not be in commit order.
    public static func withChangeLog<T>(_ body: (ChangeLog, InProcessEventBus) async throws -> T) async throws -> T {
        try await withDatabase { database in
            let bus = InProcessEventBus()
            guard database is PostgresStore else {
                return try await body(ChangeLog(pool: database, bus: bus), bus)
            }
            let relay = ChangeLogRelay(pool: database, local: bus, after: 0)
            let relaying = Task { await relay.run(clock: SystemClock(), retryDelay: .milliseconds(10)) }
            defer { relaying.cancel() }
            return try await body(ChangeLog(pool: database, bus: relay), bus)
        }
    }

    /// Calls `body` with a migrated SQLite pool on a new temporary file, whatever this run's
    /// store: for tests of SQLite's own behaviour (its files, pragmas, statement statistics).
    public static func withPool<T>(_ body: (DatabasePool) async throws -> T) async throws -> T {
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: migrations).migrate(pool)
            return try await body(pool)
        }
    }
}
