import Foundation
import HearthServices
import HearthStore

/// Temporary databases with the repository's migrations applied, as the binary applies
/// its embedded copies at start-up.
public enum MigratedDatabase {
    /// Every `migrations/NNNN_name.sql` of the repository, in order.
    public static let migrations: [Migration] = {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../migrations").standardized
        do {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".sql") }.sorted()
            return try names.map { name in
                try Migration(fileName: name, sql: String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
            }
        } catch {
            fatalError("cannot read the migrations in \(directory.path): \(error)")
        }
    }()

    /// The migrations applied to a test's database in this run's store (``TestDatabaseStore``):
    /// a template database per PostgreSQL cluster, each SQLite file anew.
    public static let preparation = TemporaryDatabase.Preparation(
        identity: "migrations " + migrations.map(\.checksum).joined(separator: " ")
    ) { writer in
        guard let pool = writer as? DatabasePool else {
            throw StoreError(extendedCode: .misuse, message: "PENDING pgcore")
        }
        try Migrator(migrations: migrations).migrate(pool)
    }

    /// Calls `body` with a migrated database of this run's store (``TestDatabaseStore``): SQLite
    /// (with `readerCount` readers) or PostgreSQL.
    public static func withDatabase<T>(readerCount: Int = 4, _ body: (any DatabaseWriter) async throws -> T) async throws -> T {
        try await TemporaryDatabase.withWriter(preparation, configuration: DatabasePool.Configuration(readerCount: readerCount), body)
    }

    /// Calls `body` with a migrated database of this run's store and a change log publishing
    /// to a fresh bus.
    public static func withChangeLog<T>(_ body: (ChangeLog, InProcessEventBus) async throws -> T) async throws -> T {
        try await withDatabase { database in
            let bus = InProcessEventBus()
            return try await body(ChangeLog(pool: database, bus: bus), bus)
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
