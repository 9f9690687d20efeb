import HearthStore
import Testing

@Suite struct MigratorTests {
    private func migration(_ fileName: String, _ sql: String) throws -> Migration {
        try Migration(fileName: fileName, sql: sql)
    }

    private var first: Migration {
        get throws { try migration("0001_create_households.sql", "CREATE TABLE households (id TEXT PRIMARY KEY, name TEXT NOT NULL);") }
    }

    private var second: Migration {
        get throws {
            try migration("0002_create_members.sql", """
                CREATE TABLE members (
                    id TEXT PRIMARY KEY,
                    household_id TEXT NOT NULL REFERENCES households(id)
                );
                INSERT INTO households (id, name) VALUES ('h1', 'Home');
                INSERT INTO members (id, household_id) VALUES ('m1', 'h1');
                """)
        }
    }

    private func tableNames(_ pool: DatabasePool) throws -> [String] {
        try pool.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { try $0[0] as String }
        }
    }

    @Test func appliesPendingMigrationsInOrderAndRecordsThem() throws {
        try TemporaryDatabase.withPool { pool in
            let migrator = try Migrator(migrations: [first, second])
            #expect(!migrator.isUpToDate(pool))
            let applied = try migrator.migrate(pool)
            #expect(applied.map(\.version) == [1, 2])
            #expect(migrator.isUpToDate(pool))
            let status = try migrator.status(of: pool)
            #expect(status.applied.map(\.version) == [1, 2])
            #expect(status.applied.map(\.name) == ["create_households", "create_members"])
            #expect(status.applied.map(\.checksum) == [try first.checksum, try second.checksum])
            #expect(status.pending.isEmpty)
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM members") } == 1)
            #expect(try migrator.migrate(pool).isEmpty, "a second run has nothing to do")
        }
    }

    @Test func statusListsAppliedAndPendingMigrations() throws {
        try TemporaryDatabase.withPool { pool in
            try Migrator(migrations: [first]).migrate(pool)
            let status = try Migrator(migrations: [first, second]).status(of: pool)
            #expect(status.applied.map(\.version) == [1])
            #expect(status.pending.map(\.fileName) == ["0002_create_members.sql"])
            #expect(status.problems.isEmpty)
            #expect(!status.isUpToDate)
        }
    }

    @Test func aFailingMigrationIsRolledBackAndEarlierOnesStayApplied() throws {
        try TemporaryDatabase.withPool { pool in
            let broken = try migration("0002_broken.sql", "CREATE TABLE half_done (x); INSERT INTO no_such_table VALUES (1);")
            let third = try migration("0003_later.sql", "CREATE TABLE later (x);")
            let migrator = try Migrator(migrations: [first, broken, third])
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(pool) }
            #expect(error?.code == .migrationFailed)
            #expect(error?.version == 2)
            #expect(error?.underlying?.code == .error)
            #expect(try tableNames(pool) == ["households", "schema_migrations"])
            let status = try migrator.status(of: pool)
            #expect(status.applied.map(\.version) == [1])
            #expect(status.pending.map(\.version) == [2, 3])
        }
    }

    @Test func aMigrationLeavingDanglingForeignKeysIsRolledBack() throws {
        try TemporaryDatabase.withPool { pool in
            let dangling = try migration("0002_dangling.sql", """
                CREATE TABLE members (id TEXT PRIMARY KEY, household_id TEXT NOT NULL REFERENCES households(id));
                INSERT INTO members (id, household_id) VALUES ('m1', 'missing');
                """)
            let migrator = try Migrator(migrations: [first, dangling])
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(pool) }
            #expect(error?.code == .foreignKeyViolation)
            #expect(error?.message.contains("members") == true)
            #expect(try tableNames(pool) == ["households", "schema_migrations"])
            // Enforcement, suspended while migrating, is back on.
            let enforcement = try pool.writeWithoutTransaction { db in try db.scalar(Int.self, "PRAGMA foreign_keys") }
            #expect(enforcement == 1)
        }
    }

    @Test func anEditedMigrationIsRefused() throws {
        try TemporaryDatabase.withPool { pool in
            try Migrator(migrations: [first]).migrate(pool)
            let edited = try migration("0001_create_households.sql", "CREATE TABLE households (id TEXT PRIMARY KEY);")
            let migrator = try Migrator(migrations: [edited, second])
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(pool) }
            #expect(error?.code == .checksumMismatch)
            #expect(error?.fileName == "0001_create_households.sql")
            #expect(!migrator.isUpToDate(pool))
            #expect(try tableNames(pool) == ["households", "schema_migrations"], "nothing else was applied")
        }
    }

    @Test func aDatabaseMigratedByANewerBinaryIsRefused() throws {
        try TemporaryDatabase.withPool { pool in
            try Migrator(migrations: [first, second]).migrate(pool)
            let older = try Migrator(migrations: [first])
            let error = #expect(throws: MigrationError.self) { try older.migrate(pool) }
            #expect(error?.code == .unknownVersion)
            #expect(error?.version == 2)
            #expect(error?.message.contains("newer") == true)
            #expect(!older.isUpToDate(pool))
            #expect(try older.status(of: pool).problems.map(\.code) == [.unknownVersion])
        }
    }

    @Test func migrationsSurviveReopeningTheDatabase() throws {
        try TemporaryDatabase.withPath { path in
            let migrator = try Migrator(migrations: [first, second])
            let pool = try DatabasePool(path: path)
            try migrator.migrate(pool)
            pool.close()
            let reopened = try DatabasePool(path: path)
            defer { reopened.close() }
            #expect(migrator.isUpToDate(reopened))
        }
    }

    @Test func listsOutOfOrderOrWithDuplicateVersionsAreRejected() throws {
        let duplicate = try migration("0001_other.sql", "SELECT 1;")
        let duplicateError = #expect(throws: MigrationError.self) { try Migrator(migrations: [first, duplicate]) }
        #expect(duplicateError?.code == .invalidOrder)
        let reversedError = #expect(throws: MigrationError.self) { try Migrator(migrations: [second, first]) }
        #expect(reversedError?.code == .invalidOrder)
        #expect(reversedError?.fileName == "0001_create_households.sql")
    }

    @Test(arguments: ["1_short.sql", "0001-dash.sql", "0001_.sql", "0001_name.txt", "0000_zero.sql", "00a1_x.sql", "0001_sp ace.sql"])
    func malformedFileNamesAreRejected(fileName: String) {
        let error = #expect(throws: MigrationError.self) { try Migration(fileName: fileName, sql: "") }
        #expect(error?.code == .invalidFileName)
    }

    @Test func fileNamesGiveVersionAndNameAndTheChecksumIsSHA256() throws {
        let parsed = try migration("0042_add-index_2.sql", "abc")
        #expect(parsed.version == 42)
        #expect(parsed.name == "add-index_2")
        #expect(parsed.checksum == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
