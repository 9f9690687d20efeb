import Foundation
import HearthStore
import TestFixtures
import Testing

/// Every migration comes in both dialects, and both reach the same logical schema
/// (docs/architecture.md, "Portable SQL"): a fresh SQLite database and a fresh PostgreSQL database
/// (the test cluster, `HEARTH_TEST_POSTGRES_URL`), each migrated by the migrator, are compared by
/// their ``SchemaCatalog``s, and every difference is listed.
@Suite struct DialectSchemaTests {
    /// Every `migrations/postgresql/NNNN_name.sql` of the repository, in order.
    static let postgresMigrations: [Migration] = {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../../migrations/postgresql").standardized
        do {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted()
            return try names.map { name in
                try Migration(fileName: name, sql: String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
            }
        } catch {
            fatalError("cannot read the migrations in \(directory.path): \(error)")
        }
    }()

    /// The only differences allowed, each with its reason: the full-text index of the habit
    /// comments (migration 0023) is each dialect's own structure.
    static let dialectOwnStructures: [String: String] = [
        "table habit_event_words: only in sqlite": "SQLite's FTS5 table of the comments' words",
        "table habit_event_search_keys: only in sqlite": "the FTS5 table's keys by event, which its triggers keep",
        "habit_events.comment_words: only in postgresql": "PostgreSQL's tsvector of the comment (`simple`), a generated column",
        "index habit_events.habit_event_words: only in postgresql": "the GIN index of that tsvector",
    ]

    @Test func everySQLiteMigrationHasAPostgreSQLTwinOfTheSameNumberAndName() {
        #expect(Self.postgresMigrations.map(\.fileName) == MigratedDatabase.migrations.map(\.fileName))
    }

    @Test func bothDialectsReachTheSameLogicalSchema() async throws {
        let sqlite = try await MigratedDatabase.withPool { pool in try pool.read { try SchemaCatalog.read($0) } }
        let postgres = try TemporaryPostgresDatabase.withStore { store in
            try Migrator(migrations: Self.postgresMigrations).migrate(store)
            return try store.read { try SchemaCatalog.read($0) }
        }
        #expect(sqlite.tables.count > 60, "the catalog reads the migrated schema")
        let differences = sqlite.differences(named: "sqlite", from: postgres, named: "postgresql")
        let unexpected = differences.filter { Self.dialectOwnStructures[$0] == nil }
        #expect(unexpected.isEmpty, """
            migrations/ and migrations/postgresql/ reach different schemas; make the PostgreSQL twin match:
            \(unexpected.joined(separator: "\n"))
            """)
        for expected in Self.dialectOwnStructures.keys {
            #expect(differences.contains(expected), "no longer a difference: remove it from dialectOwnStructures: \(expected)")
        }
    }
}
