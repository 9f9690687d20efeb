import HearthStore
import Testing

/// A cache of one table's values outlives commits to other tables and ends with any change to
/// a row of it, whatever SQL makes the change (SQLite's preupdate hook, `TableCommitCounter`).
struct TableCommitCounterTests {
    /// A pool with `notes` (each of a `parent`, deleted with it), `parents`, and `other`, whose
    /// inserts touch a note by trigger; a cache of note bodies by id, ended by commits to `notes`.
    private func withNotes(_ body: (DatabasePool, CommitScopedCache<Int, String?>) async throws -> Void) async throws {
        try await TemporaryDatabase.withPool { pool in
            try await pool.write { db in
                try db.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
                try db.execute("""
                    CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL,
                    parent INTEGER REFERENCES parents (id) ON DELETE CASCADE)
                    """)
                try db.execute("CREATE TABLE other (x TEXT)")
                try db.execute("""
                    CREATE TRIGGER other_touches_note AFTER INSERT ON other WHEN new.x = 'note'
                    BEGIN UPDATE notes SET body = 'by trigger' WHERE id = 1; END
                    """)
                try db.execute("INSERT INTO parents (id) VALUES (7)")
                try db.execute("INSERT INTO notes (id, body, parent) VALUES (1, 'first', 7)")
            }
            try await body(pool, CommitScopedCache(pool: pool, tables: ["notes"]))
        }
    }

    private static func body(_ db: Database) throws -> String? {
        try db.scalar(String.self, "SELECT body FROM notes WHERE id = 1")
    }

    @Test func commitsToOtherTablesLeaveTheCacheAndItsCountAsTheyWere() async throws {
        try await withNotes { pool, cache in
            let counter = try #require(pool.commitCounter(touching: ["notes"]))
            #expect(try await cache.value(for: 1, read: Self.body) == "first")
            let (count, commits) = (counter.value, pool.commitCount)
            try await pool.write { db in try db.execute("INSERT INTO other (x) VALUES ('elsewhere')") }
            try await pool.write { db in try db.execute("INSERT INTO parents (id) VALUES (8)") }
            #expect(pool.commitCount == commits + 4, "two commits")
            #expect(counter.value == count, "none to notes")
            #expect(cache.cachedValue(for: 1) == "first")
        }
    }

    /// Each way SQL changes a row of `notes` ends the cache: a statement on it, a trigger of
    /// another table, a foreign key's cascade, an upsert, a delete of the whole table (which
    /// SQLite may run without visiting rows), and any write outside a transaction.
    @Test(arguments: [
        "UPDATE notes SET body = 'second' WHERE id = 1",
        "INSERT INTO notes (id, body) VALUES (2, 'another')",
        "INSERT INTO other (x) VALUES ('note')",
        "DELETE FROM parents WHERE id = 7",
        "INSERT INTO notes (id, body) VALUES (1, 'upserted') ON CONFLICT (id) DO UPDATE SET body = excluded.body",
        "DELETE FROM notes",
        "ALTER TABLE notes ADD COLUMN extra TEXT NOT NULL DEFAULT 'added'",
        "CREATE TABLE unrelated_new (x)",
    ])
    func everyChangeToARowOfTheTableEndsTheCache(statement: String) async throws {
        try await withNotes { pool, cache in
            let counter = try #require(pool.commitCounter(touching: ["notes", "unrelated"]))
            #expect(try await cache.value(for: 1, read: Self.body) == "first")
            let count = counter.value
            try await pool.write { db in try db.execute(statement) }
            #expect(counter.value == count + 2, "moved once into the commit and once out")
            #expect(cache.cachedValue(for: 1) == nil)
            let now = try await pool.read { db in try Self.body(db) }
            #expect(try await cache.value(for: 1, read: Self.body) == now)
        }
    }

    @Test func aWriteOutsideATransactionEndsTheCacheWhateverItChanges() async throws {
        try await withNotes { pool, cache in
            #expect(try await cache.value(for: 1, read: Self.body) == "first")
            try pool.writeWithoutTransaction { db in try db.execute("INSERT INTO other (x) VALUES ('elsewhere')") }
            #expect(cache.cachedValue(for: 1) == nil)
        }
    }

    @Test func aRolledBackWriteCountsNothingForTheNextCommit() async throws {
        try await withNotes { pool, cache in
            let counter = try #require(pool.commitCounter(touching: ["notes"]))
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try pool.write { db in
                    try db.execute("UPDATE notes SET body = 'never' WHERE id = 1")
                    throw Refused()
                }
            }
            #expect(try await cache.value(for: 1, read: Self.body) == "first")
            let count = counter.value
            try await pool.write { db in try db.execute("INSERT INTO other (x) VALUES ('elsewhere')") }
            #expect(counter.value == count)
            #expect(cache.cachedValue(for: 1) == "first")
        }
    }
}
