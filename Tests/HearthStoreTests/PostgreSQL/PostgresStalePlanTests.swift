import HearthStore
import Testing

/// A statement cached on a connection still runs after another session (an instance migrating)
/// alters a table it reads so that its result type changes: PostgreSQL then refuses the cached
/// plan ("cached plan must not change result type", SQLSTATE 0A000), and the connection
/// prepares the statement again, once, without the caller noticing.
@Suite struct PostgresStalePlanTests {
    private static let everything = "SELECT * FROM t ORDER BY x"

    /// A one-connection store whose `SELECT * FROM t` is prepared and cached, and a second
    /// store, another instance, that alters `t` under it.
    private func withCachedStatement(_ body: (PostgresStore, PostgresStore) throws -> Void) throws {
        try TemporaryPostgresDatabase.withStore(configure: { $0.maxConnections = 1 }) { store in
            try store.write { db in
                try db.execute("CREATE TABLE t (x BIGINT NOT NULL)")
                try db.execute("INSERT INTO t (x) VALUES (1)")
            }
            let rows = try store.read { db in try db.query(Self.everything) }
            #expect(rows.map(\.count) == [1])
            let other = try PostgresStore(configuration: .init(url: store.configuration.url, maxConnections: 1))
            defer { other.close() }
            try body(store, other)
        }
    }

    @Test func aReadPreparesTheStatementAgainAfterAnotherInstanceAddsAColumn() throws {
        try withCachedStatement { store, other in
            try other.write { db in try db.execute("ALTER TABLE t ADD COLUMN label TEXT NOT NULL DEFAULT 'added'") }
            let prepared = store.statistics.preparedStatements
            let rows = try store.read { db in try db.query(Self.everything) }
            #expect(try rows.map { row -> String in try row["label"] } == ["added"])
            // The stale statement was prepared again, and is served from the cache from then on.
            let preparedAgain = store.statistics.preparedStatements
            #expect(preparedAgain > prepared)
            _ = try store.read { db in try db.query(Self.everything) }
            #expect(store.statistics.preparedStatements == preparedAgain)
        }
    }

    @Test func aWritePreparesTheStatementAgainAfterAnotherInstanceChangesAColumnsType() throws {
        try withCachedStatement { store, other in
            try other.write { db in try db.execute("ALTER TABLE t ALTER COLUMN x TYPE TEXT") }
            let values = try store.write { db in
                try db.execute("INSERT INTO t (x) VALUES (?)", ["2"])
                return try db.query(Self.everything).map { row -> String in try row["x"] }
            }
            #expect(values == ["1", "2"])
        }
    }

    @Test func aStatementOutsideATransactionIsPreparedAgainAndRunOnce() throws {
        try withCachedStatement { store, other in
            _ = try store.writeWithoutTransaction { db in try db.query(Self.everything) }
            try other.write { db in try db.execute("ALTER TABLE t ADD COLUMN label TEXT NOT NULL DEFAULT 'added'") }
            try other.write { db in try db.execute("INSERT INTO t (x) VALUES (2)") }
            // Run once more, not twice: an insert would show twice.
            try store.writeWithoutTransaction { db in
                try db.execute("INSERT INTO t (x, label) SELECT x + 10, label FROM t WHERE x = 2")
            }
            let rows = try store.writeWithoutTransaction { db in try db.query(Self.everything) }
            #expect(try rows.map { row -> Int in try row["x"] } == [1, 2, 12])
            #expect(try rows.map { row -> String in try row["label"] } == ["added", "added", "added"])
        }
    }

    @Test func otherErrorsOfAStatementAreNotRetried() throws {
        try withCachedStatement { store, other in
            try other.write { db in try db.execute("DROP TABLE t") }
            let error = #expect(throws: StoreError.self) { try store.read { db in try db.query(Self.everything) } }
            #expect(error?.sqlState == "42P01")
        }
    }
}
