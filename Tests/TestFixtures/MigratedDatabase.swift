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

    /// Calls `body` with a migrated pool and a change log publishing to a fresh bus.
    public static func withChangeLog<T>(_ body: (ChangeLog, InProcessEventBus) async throws -> T) async throws -> T {
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: migrations).migrate(pool)
            let bus = InProcessEventBus()
            return try await body(ChangeLog(pool: pool, bus: bus), bus)
        }
    }

    /// Calls `body` with a migrated pool on a new temporary database.
    public static func withPool<T>(_ body: (DatabasePool) async throws -> T) async throws -> T {
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: migrations).migrate(pool)
            return try await body(pool)
        }
    }
}
