import HearthStore
import Testing

@Suite struct StoreErrorTests {
    @Test func constraintErrorsCarryCodesAndSQLButNotTheBoundValues() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in try db.execute("CREATE TABLE users (email TEXT UNIQUE, secret TEXT)") }
            let sql = "INSERT INTO users (email, secret) VALUES (?, ?)"
            try pool.write { db in try db.execute(sql, ["a@example.com", "hunter2"]) }
            let error = #expect(throws: StoreError.self) {
                try pool.write { db in try db.execute(sql, ["a@example.com", "correct horse battery staple"]) }
            }
            #expect(error?.code == .constraint)
            #expect(error?.extendedCode == .constraintUnique)
            #expect(error?.category == .uniqueViolation)
            #expect(error?.sqlState == nil)
            #expect(error?.sql == sql)
            let rendered = error.map { "\($0)" + $0.message } ?? ""
            #expect(rendered.contains("UNIQUE"))
            #expect(!rendered.contains("correct horse"))
            #expect(!rendered.contains("a@example.com"))
        }
    }

    @Test func syntaxErrorsCarryTheSQL() throws {
        try TemporaryDatabase.withPool { pool in
            let error = #expect(throws: StoreError.self) {
                try pool.read { db in try db.query("SELEC 1") }
            }
            #expect(error?.code == .error)
            #expect(error?.sql == "SELEC 1")
        }
    }

    @Test func aWrongArgumentCountIsRefusedInsteadOfBindingNull() throws {
        try TemporaryDatabase.withPool { pool in
            let error = #expect(throws: StoreError.self) {
                try pool.read { db in try db.query("SELECT ?, ?", [1]) }
            }
            #expect(error?.code == .range)
        }
    }

    @Test func severalStatementsAreRefusedOutsideScripts() throws {
        try TemporaryDatabase.withPool { pool in
            let error = #expect(throws: StoreError.self) {
                try pool.write { db in try db.execute("CREATE TABLE a (x); CREATE TABLE b (y)") }
            }
            #expect(error?.code == .misuse)
            try pool.write { db in
                try db.execute("CREATE TABLE a (x); -- a trailing comment is fine")
                try db.executeScript("CREATE TABLE b (y); CREATE TABLE c (z);")
            }
            let tables = try pool.read { db in
                try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { try $0[0] as String }
            }
            #expect(tables == ["a", "b", "c"])
        }
    }

    @Test func primaryCodesAreTheLowByteOfExtendedCodes() {
        #expect(ResultCode.constraintForeignKey.primary == .constraint)
        #expect(ResultCode.constraintNotNull.primary == .constraint)
        #expect(ResultCode.busy.primary == .busy)
    }

    @Test func foreignKeyViolationsAndBusyDatabasesAreClassifiedLikePostgreSQLs() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
                try db.execute("CREATE TABLE children (parent_id INTEGER REFERENCES parents (id))")
            }
            let error = #expect(throws: StoreError.self) {
                try pool.write { db in try db.execute("INSERT INTO children VALUES (?)", [1]) }
            }
            #expect(error?.category == .foreignKeyViolation)
        }
        #expect(StoreError(extendedCode: .busy, message: "locked").category == .busy)
        #expect(StoreError(extendedCode: .error, message: "syntax").category == .other)
    }
}
