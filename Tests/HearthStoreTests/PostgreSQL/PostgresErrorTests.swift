import HearthStore
import Testing

/// Errors on PostgreSQL carry the shared ``StoreError/Category``, the SQL and never the values.
@Suite struct PostgresErrorTests {
    @Test func uniqueViolationsAreClassifiedAndKeepBoundValuesOut() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try store.write { db in try db.execute("CREATE TABLE users (email TEXT UNIQUE, secret TEXT)") }
            let sql = "INSERT INTO users (email, secret) VALUES (?, ?)"
            try store.write { db in try db.execute(sql, ["a@example.com", "hunter2"]) }
            let error = #expect(throws: StoreError.self) {
                try store.write { db in try db.execute(sql, ["a@example.com", "correct horse battery staple"]) }
            }
            #expect(error?.category == .uniqueViolation)
            #expect(error?.extendedCode == .constraintUnique)
            #expect(error?.sqlState == "23505")
            #expect(error?.sql == sql)
            let rendered = error.map { "\($0)" } ?? ""
            #expect(!rendered.contains("correct horse"))
        }
    }

    @Test func foreignKeyViolationsAreClassified() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try store.write { db in
                try db.execute("CREATE TABLE parents (id BIGINT PRIMARY KEY)")
                try db.execute("CREATE TABLE children (parent_id BIGINT REFERENCES parents (id))")
            }
            let error = #expect(throws: StoreError.self) {
                try store.write { db in try db.execute("INSERT INTO children VALUES (?)", [1]) }
            }
            #expect(error?.category == .foreignKeyViolation)
        }
    }

    @Test func aCaughtFailureInsideAWriteRollsItBackInsteadOfCommittingSilently() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT UNIQUE)") }
            let error = #expect(throws: StoreError.self) {
                try store.write { db in
                    try db.execute("INSERT INTO t VALUES (1)")
                    try? db.execute("INSERT INTO t VALUES (1)")
                }
            }
            #expect(error?.code == .abort)
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 0)
        }
    }
}
