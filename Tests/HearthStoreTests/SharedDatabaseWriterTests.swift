import HearthStore
import Testing

struct SharedDatabaseWriterTests {
    private struct Refused: Error {}

    private func withNotes(
        announce: @escaping @Sendable (Database) throws -> Void, _ body: (DatabasePool, SharedDatabaseWriter) async throws -> Void
    ) async throws {
        try await TemporaryDatabase.withPool { pool in
            try await pool.write { db in
                try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
                try db.execute("CREATE TABLE announcements (id INTEGER PRIMARY KEY)")
                try db.execute("INSERT INTO notes (id, body) VALUES (1, 'first')")
            }
            try await body(pool, SharedDatabaseWriter(base: pool, announce: announce))
        }
    }

    private static let body: @Sendable (Database) throws -> String? = { db in
        try db.scalar(String.self, "SELECT body FROM notes WHERE id = 1")
    }

    @Test func forwardsTheStoresCommitCount() async throws {
        try await withNotes(announce: { _ in }) { pool, shared in
            try await shared.write { db in try db.execute("UPDATE notes SET body = 'second' WHERE id = 1") }
            #expect(shared.commitCount == pool.commitCount)
            #expect(shared.commitCount > 0)
        }
    }

    @Test func announcesInEachWriteTransactionSoNothingIsAnnouncedForARollback() async throws {
        // The announcement writes a row: it is there exactly when the transaction committed.
        try await withNotes(announce: { db in try db.execute("INSERT INTO announcements DEFAULT VALUES") }) { _, shared in
            try await shared.write { db in try db.execute("UPDATE notes SET body = 'second' WHERE id = 1") }
            try await shared.write { db in try db.execute("UPDATE notes SET body = 'third' WHERE id = 1") }
            await #expect(throws: Refused.self) {
                try await shared.write { db in
                    try db.execute("UPDATE notes SET body = 'lost' WHERE id = 1")
                    throw Refused()
                }
            }
            #expect(try await shared.read { db in try db.scalar(Int.self, "SELECT count(*) FROM announcements") } == 2)
            #expect(try await shared.read(Self.body) == "third")
        }
    }
}
