import HearthStore
import TestFixtures
import Testing

/// ``DialectSQL`` answers alike in both stores: the habit comments' word search finds the same
/// events through SQLite's FTS5 table and PostgreSQL's `tsvector` (migration 0023 and its twin).
@Suite struct DialectSQLTests {
    /// Comments by event id.
    private static let comments = [
        "e1": "Ran 5 km, Run! felt great",
        "e2": "café au lait",
        "e3": "cafe",
        "e4": "running late",
        "e5": "say \"hi\" to foo@bar.com at 3.5 km",
        "e6": "",
    ]

    /// Searched words and the events each must find, in both dialects.
    private static let searches: [(word: String, events: Set<String>)] = [
        ("run", ["e1"]), ("RUN", ["e1"]), ("running", ["e4"]), ("Café", ["e2"]), ("cafe", ["e3"]), ("au lait", ["e2"]),
        ("lait au", []), ("5", ["e1", "e5"]), ("bar", ["e5"]), ("\"hi\"", ["e5"]), ("km", ["e1", "e5"]), ("OR", []),
    ]

    private static func populate(_ database: Database) throws {
        let time = "2026-12-03T09:00:00.000Z"
        try database.execute(
            "INSERT INTO users (id, username, username_key, email, email_key, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ["u1", "ann", "ann", "ann@example.com", "ann@example.com", "Ann", time, time])
        try database.execute(
            "INSERT INTO habits (id, user_id, title, starts_on, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            ["h1", "u1", "Run", "2026-12-01", 127, time, time])
        for (id, comment) in comments {
            try database.execute(
                """
                INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, comment, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [id, "h1", "u1", "2026-12-03", time, comment, time, time])
        }
        // An edit is searched by its new words only.
        try database.execute("UPDATE habit_events SET comment = ? WHERE id = ?", ["running late", "e4"])
    }

    private static func found(_ word: String, _ database: Database) throws -> Set<String> {
        let sql = "SELECT e.id FROM habit_events e WHERE e.user_id = ?" + DialectSQL.habitCommentContains(database.dialect)
        return Set(try database.query(sql, ["u1", DialectSQL.habitCommentPhrase(word)]).map { try $0["id"] as String })
    }

    @Test func theCommentSearchFindsTheSameEventsInBothDialects() async throws {
        let sqlite = try await MigratedDatabase.withPool { pool in
            try pool.write { database in
                #expect(database.dialect == .sqlite)
                try Self.populate(database)
                return try Self.searches.map { try Self.found($0.word, database) }
            }
        }
        let postgres = try TemporaryPostgresDatabase.withStore { store in
            try Migrator(migrations: DialectSchemaTests.postgresMigrations).migrate(store)
            return try store.write { database in
                #expect(database.dialect == .postgresql)
                try Self.populate(database)
                return try Self.searches.map { try Self.found($0.word, database) }
            }
        }
        for (index, search) in Self.searches.enumerated() {
            #expect(sqlite[index] == search.events, "SQLite, \(search.word)")
            #expect(postgres[index] == search.events, "PostgreSQL, \(search.word)")
        }
    }
}
