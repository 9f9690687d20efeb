import HearthStore
import Testing

@Suite struct ForRowsTests {
    /// `SELECT` of 1 through 1,000 from a recursive CTE.
    static let thousand = "WITH RECURSIVE n (x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000) SELECT x FROM n"

    @Test func rowsAreReadWhileTheBodyAsksAndTheStatementIsReusedAfter() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.read { db throws in
                var seen: [Int] = []
                try db.forRows(Self.thousand, while: { row in
                    seen.append(try row[0])
                    return seen.count < 3
                })
                #expect(seen == [1, 2, 3], "the body is not called again after it answers false")
                // The statement stopped half-way is reset: the same text from the cache reads from the start.
                var all = 0
                try db.forRows(Self.thousand, while: { _ in
                    all += 1
                    return true
                })
                #expect(all == 1_000)
                var none = 0
                try db.forRows("SELECT 1 WHERE 0 = 1", while: { _ in
                    none += 1
                    return true
                })
                #expect(none == 0)
            }
        }
    }
}
