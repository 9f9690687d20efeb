import HearthStore
import Testing

/// The migrator on PostgreSQL: the same bookkeeping and checksum discipline as on SQLite, each
/// migration in its own transaction (with a tiny list of this test's own).
@Suite struct PostgresMigratorTests {
    private var first: Migration {
        get throws { try Migration(fileName: "0001_households.sql", sql: "CREATE TABLE households (id TEXT COLLATE \"C\" PRIMARY KEY, name TEXT NOT NULL);") }
    }

    private var second: Migration {
        get throws {
            try Migration(fileName: "0002_members.sql", sql: """
                CREATE TABLE members (id TEXT PRIMARY KEY, household_id TEXT NOT NULL REFERENCES households (id));
                INSERT INTO households (id, name) VALUES ('h1', 'Home');
                INSERT INTO members (id, household_id) VALUES ('m1', 'h1');
                """)
        }
    }

    @Test func appliesPendingMigrationsInOrderAndRecordsTheirChecksums() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let migrator = try Migrator(migrations: [first, second])
            #expect(!migrator.isUpToDate(store))
            #expect(try migrator.migrate(store).map(\.version) == [1, 2])
            #expect(migrator.isUpToDate(store))
            let status = try migrator.status(of: store)
            #expect(status.applied.map(\.checksum) == [try first.checksum, try second.checksum])
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM members") } == 1)
            #expect(try migrator.migrate(store).isEmpty)
        }
    }

    @Test func anEditedMigrationIsRefusedBeforeAnythingIsApplied() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try Migrator(migrations: [first]).migrate(store)
            let edited = try Migration(fileName: "0001_households.sql", sql: "CREATE TABLE households (id TEXT PRIMARY KEY);")
            let error = #expect(throws: MigrationError.self) {
                try Migrator(migrations: [edited, second]).migrate(store)
            }
            #expect(error?.code == .checksumMismatch)
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM schema_migrations") } == 1)
        }
    }

    @Test func aFailingMigrationLeavesNoTraceAndEarlierOnesStay() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let broken = try Migration(fileName: "0002_broken.sql", sql: """
                CREATE TABLE half (x BIGINT);
                INSERT INTO missing VALUES (1);
                """)
            let error = #expect(throws: MigrationError.self) {
                try Migrator(migrations: [first, broken]).migrate(store)
            }
            #expect(error?.code == .migrationFailed)
            let tables = try store.read { db in
                try db.query("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name")
                    .map { try $0[0] as String }
            }
            #expect(tables == ["households", "schema_migrations"])
        }
    }
}
