import Foundation
import HearthStore
import TestFixtures
import Testing

/// The migrations that made the schema portable (docs/architecture.md, "Portable SQL"), on
/// databases written before them.
@Suite struct PortableSchemaMigrationTests {
    private static func migrations(before version: Int) -> [Migration] {
        Array(MigratedDatabase.migrations.prefix { $0.version < version })
    }

    @Test func householdsFromBeforeTheNameKeyGetOneThatSortsAsNocaseDid() async throws {
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: Self.migrations(before: 9)).migrate(pool)
            try pool.write { database in
                for (id, name) in [("a", "Zebra Flat"), ("b", "apple house"), ("c", "Étoile")] {
                    try database.execute(
                        "INSERT INTO households (id, name, time_zone, created_at, updated_at) VALUES (?, ?, 'UTC', ?, ?)",
                        [id, name, "2026-11-30T10:00:00.000Z", "2026-11-30T10:00:00.000Z"])
                }
            }

            try Migrator(migrations: MigratedDatabase.migrations).migrate(pool)

            let keys = try pool.read { try $0.query("SELECT id, name_key FROM households ORDER BY name_key, id") }
            #expect(try keys.map { try $0["id"] as String } == ["b", "a", "c"])
            #expect(try keys.map { try $0["name_key"] as String } == ["apple house", "zebra flat", "Étoile"],
                    "SQLite's lower() folds ASCII only, like NOCASE: the old order is kept")
        }
    }

    /// Triggers carry no business rules (docs/architecture.md, "Portable SQL"): migration 0010
    /// dropped the last ones, whose rules the service keeps now. The only triggers left maintain
    /// derived data, each listed here with its reason.
    static let derivedDataTriggers: [String: String] = [
        "habit_event_words_insert": "keeps the habit comments' full-text index (FTS5, migration 0023) in step with a new event",
        "habit_event_words_update": "the same index, when a comment is edited",
        "habit_event_words_delete": "the same index, when an event is deleted (also by its habit's or account's deletion)",
    ]

    @Test func theMigratedSchemaHasNoTriggersButThoseOfDerivedData() async throws {
        try await MigratedDatabase.withPool { pool in
            let triggers = try pool.read { try $0.query("SELECT name FROM sqlite_master WHERE type = 'trigger'") }
            #expect(Set(try triggers.map { try $0["name"] as String }) == Set(Self.derivedDataTriggers.keys), "\(triggers)")
        }
    }
}
