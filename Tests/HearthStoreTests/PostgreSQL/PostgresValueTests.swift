import HearthStore
import Testing

/// Statements and values on PostgreSQL: placeholders, every value type, `NULL`s, blobs, the
/// changed-row count and the statement cache (against `HEARTH_TEST_POSTGRES_URL`'s cluster).
@Suite struct PostgresValueTests {
    @Test func placeholdersBecomeNumberedParametersButNotInsideStringsOrComments() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let row = try store.read { db in
                try db.queryOne(
                    "SELECT CAST(? AS BIGINT) AS a, '?' AS b, \"?col\".x AS c, ? AS d /* ? /* ? */ */ -- ?\n FROM (SELECT 1 AS x) AS \"?col\"",
                    [1, "two"])
            }
            #expect(try row?["a"] as Int? == 1)
            #expect(try row?["b"] as String? == "?")
            #expect(try row?["c"] as Int? == 1)
            #expect(try row?["d"] as String? == "two")
        }
    }

    @Test func everyValueTypeRoundTripsThroughItsColumnType() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let bytes: [UInt8] = [0, 1, 2, 0xFF, 0x5C, 0x78]
            let row = try store.write { db in
                try db.execute("""
                    CREATE TABLE v (i2 SMALLINT, i4 INTEGER, i8 BIGINT, b BOOLEAN, r REAL, d DOUBLE PRECISION,
                                    n NUMERIC, f NUMERIC, t TEXT, y BYTEA, e BYTEA)
                    """)
                try db.execute(
                    "INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [-7, 2_000_000_000, Int64.max, true, 0.5, -1.25e-10, 42, 2.5, "héllo ✓", bytes, [UInt8]()])
                return try db.queryOne("SELECT * FROM v")
            }
            let values = try #require(row).values
            #expect(values == [
                .integer(-7), .integer(2_000_000_000), .integer(Int64.max), .integer(1), .real(0.5), .real(-1.25e-10),
                .integer(42), .real(2.5), .text("héllo ✓"), .blob(bytes), .blob([]),
            ])
        }
    }

    @Test func nullsRoundTripInEveryColumnType() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let values = try store.write { db in
                try db.execute("CREATE TABLE v (i BIGINT, t TEXT, y BYTEA, d DOUBLE PRECISION)")
                try db.execute("INSERT INTO v VALUES (?, ?, ?, ?)", [nil, nil, nil, nil])
                return try db.queryOne("SELECT * FROM v")?.values
            }
            #expect(values == [.null, .null, .null, .null])
        }
    }

    @Test func aggregatesDecodeAsIntegersWhenWhole() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let (count, sum, average) = try store.write { db in
                try db.execute("CREATE TABLE v (x BIGINT)")
                for x in [1, 2] { try db.execute("INSERT INTO v VALUES (?)", [x]) }
                return (
                    try db.scalar(Int.self, "SELECT count(*) FROM v"), try db.scalar(Int.self, "SELECT sum(x) FROM v"),
                    try db.scalar(Double.self, "SELECT avg(x) FROM v"))
            }
            #expect(count == 2)
            #expect(sum == 3)
            #expect(average == 1.5)
        }
    }

    @Test func changedRowCountAndReturningWork() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let (changed, returned) = try store.write { db in
                try db.execute("CREATE TABLE v (id BIGINT PRIMARY KEY, x TEXT)")
                let returned = try db.scalar(Int.self, "INSERT INTO v (id, x) VALUES (?, ?) RETURNING id", [7, "a"])
                try db.execute("INSERT INTO v (id, x) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", [8, "b"])
                try db.execute("UPDATE v SET x = ?", ["c"])
                return (db.changedRowCount, returned)
            }
            #expect(changed == 2)
            #expect(returned == 7)
        }
    }

    @Test func statementsArePreparedOncePerConnection() throws {
        try TemporaryPostgresDatabase.withStore(configure: { $0.maxConnections = 1 }) { store in
            let before = store.statistics.preparedStatements
            for _ in 0..<5 {
                _ = try store.read { db in try db.scalar(Int.self, "SELECT ? + 1", [1]) }
            }
            // The read transaction's BEGIN and COMMIT are prepared once too.
            #expect(store.statistics.preparedStatements - before == 3)
        }
    }

    @Test func aWrongArgumentCountIsRefused() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let error = #expect(throws: StoreError.self) {
                try store.read { db in try db.query("SELECT ?::bigint, ?::bigint", [1]) }
            }
            #expect(error?.code == .range)
        }
    }

    @Test func recordsAndDecodableRowsReadTheSameColumns() throws {
        try TemporaryPostgresDatabase.withStore { store in
            struct Item: Decodable, Equatable { let id: Int; let name: String }
            let items = try store.write { db in
                try db.execute("CREATE TABLE items (id BIGINT, name TEXT)")
                try db.execute("INSERT INTO items VALUES (1, 'a'), (2, 'b')")
                return try db.decode(Item.self, "SELECT id, name FROM items ORDER BY id")
            }
            #expect(items == [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
        }
    }
}
