import HearthStore
import Testing

@Suite struct StatementCacheTests {
    @Test func repeatedSQLReusesThePreparedStatement() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db throws in
                let start = db.statementCacheStatistics
                for value in 1...3 {
                    #expect(try db.scalar(Int.self, "SELECT ? + 1", [value]) == value + 1)
                }
                let end = db.statementCacheStatistics
                #expect(end.misses - start.misses == 1)
                #expect(end.hits - start.hits == 2)
            }
            // The cache belongs to the connection, so it survives across transactions.
            try pool.write { db throws in
                let before = db.statementCacheStatistics.hits
                _ = try db.scalar(Int.self, "SELECT ? + 1", [10])
                #expect(db.statementCacheStatistics.hits == before + 1)
            }
        }
    }

    @Test func theCacheIsBoundedAndEvictsTheLeastRecentlyUsed() throws {
        try TemporaryDatabase.withPool(configuration: .init(statementCacheCapacity: 2)) { pool in
            try pool.write { db throws in
                let start = db.statementCacheStatistics
                _ = try db.query("SELECT 'a'")
                _ = try db.query("SELECT 'b'")
                _ = try db.query("SELECT 'a'")   // a is now more recent than b
                _ = try db.query("SELECT 'c'")   // evicts b
                _ = try db.query("SELECT 'a'")   // still cached
                let end = db.statementCacheStatistics
                #expect(end.count == 2)
                #expect(end.evictions - start.evictions >= 1)
                let hitsBeforeB = end.hits
                _ = try db.query("SELECT 'b'")
                #expect(db.statementCacheStatistics.hits == hitsBeforeB, "b was evicted, so it is compiled again")
                #expect(end.hits - start.hits == 2)
            }
        }
    }

    @Test func textsAlikeAtBothEndsAreDifferentStatements() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db throws in
                // Same length, same first and last hundred bytes: only the middle differs.
                let padding = String(repeating: " ", count: 100)
                let greater = "SELECT\(padding)2 > 1\(padding)"
                let less = "SELECT\(padding)2 < 1\(padding)"
                #expect(greater.utf8.count == less.utf8.count)
                let start = db.statementCacheStatistics
                #expect(try db.scalar(Bool.self, greater) == true)
                #expect(try db.scalar(Bool.self, less) == false)
                #expect(try db.scalar(Bool.self, greater) == true)
                #expect(try db.scalar(Bool.self, less) == false)
                let end = db.statementCacheStatistics
                #expect(end.misses - start.misses == 2 && end.hits - start.hits == 2, "each text its own statement, reused")
            }
        }
    }

    @Test func aStatementInUseIsNotHandedOutTwice() throws {
        try TemporaryDatabase.withPool { pool in
            let pairs = try pool.write { db throws in
                try db.execute("CREATE TABLE numbers (n INTEGER)")
                try db.execute("INSERT INTO numbers (n) VALUES (1), (2)")
                var pairs: [[Int]] = []
                let sql = "SELECT n FROM numbers WHERE n >= ? ORDER BY n"
                try db.forEachRow(sql, [1]) { outer in
                    let inner = try db.query(sql, [2]).map { try $0[0] as Int }
                    pairs.append([try outer[0] as Int] + inner)
                }
                return pairs
            }
            #expect(pairs == [[1, 2], [2, 2]])
        }
    }

    @Test func aCachedStatementThatFailedIsResetAndReusable() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db throws in
                try db.execute("CREATE TABLE t (a INTEGER UNIQUE)")
                let sql = "INSERT INTO t (a) VALUES (?)"
                try db.execute(sql, [1])
                #expect(throws: StoreError.self) { try db.execute(sql, [1]) }
                let hits = db.statementCacheStatistics.hits
                try db.execute(sql, [2])
                #expect(db.statementCacheStatistics.hits == hits + 1)
                #expect(try db.query("SELECT a FROM t ORDER BY a").map { try $0[0] as Int } == [1, 2])
            }
        }
    }

    @Test func cachedSelectStarFollowsSchemaChanges() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db throws in
                try db.execute("CREATE TABLE t (a)")
                try db.execute("INSERT INTO t (a) VALUES (1)")
                #expect(try db.queryOne("SELECT * FROM t")?.columnNames == ["a"])
                #expect(try db.query("SELECT * FROM t ORDER BY a").map(\.columnNames) == [["a"]])
                try db.execute("ALTER TABLE t ADD COLUMN b DEFAULT 2")
                let row = try #require(try db.queryOne("SELECT * FROM t"))
                #expect(row.columnNames == ["a", "b"])
                #expect(try row["b"] as Int == 2)
                // The statements came from the cache: their column lists were read again.
                let rows = try db.query("SELECT * FROM t ORDER BY a")
                #expect(rows.map(\.columnNames) == [["a", "b"]])
                #expect(try rows[0]["b"] as Int == 2)
            }
        }
    }
}
