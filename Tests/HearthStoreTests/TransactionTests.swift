import HearthStore
import Testing

@Suite struct TransactionTests {
    private func makeTable(_ pool: DatabasePool) throws {
        try pool.write { db in
            try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
    }

    private struct Abort: Error {}

    @Test func committedWritesAreVisibleToLaterReads() throws {
        try TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            let id = try pool.write { db in
                try db.scalar(Int64.self, "INSERT INTO items (name) VALUES (?) RETURNING id", ["kettle"])
            }
            let name = try pool.read { db in try db.scalar(String.self, "SELECT name FROM items WHERE id = ?", [id]) }
            #expect(name == "kettle")
        }
    }

    @Test func aWriteThatThrowsIsRolledBackAndTheErrorRethrown() throws {
        try TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            #expect(throws: Abort.self) {
                try pool.write { db in
                    try db.execute("INSERT INTO items (name) VALUES (?)", ["kettle"])
                    throw Abort()
                }
            }
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM items") } == 0)
            // The writer is usable again: no transaction was left open.
            try pool.write { db in
                #expect(db.isInTransaction)
                try db.execute("INSERT INTO items (name) VALUES (?)", ["pot"])
            }
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM items") } == 1)
        }
    }

    @Test func aCommitThatFailsRollsBackEverything() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
                try db.execute("""
                    CREATE TABLE children (
                        id INTEGER PRIMARY KEY,
                        parent_id INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED
                    )
                    """)
            }
            // The deferred foreign key is checked at COMMIT, which therefore fails.
            let error = #expect(throws: StoreError.self) {
                try pool.write { db in
                    try db.execute("INSERT INTO children (parent_id) VALUES (?)", [42])
                }
            }
            #expect(error?.code == .constraint)
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM children") } == 0)
            try pool.write { db in #expect(db.isInTransaction) }
        }
    }

    @Test func aFailedSavepointUndoesOnlyItsOwnChanges() throws {
        try TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            try pool.write { db in
                try db.execute("INSERT INTO items (name) VALUES ('outer')")
                // Not `#expect(throws:)` around a trailing closure here: Swift 6.3 then runs the
                // wrong closure for the next `savepoint` call (a closure-discriminator clash in
                // the macro expansion), so the failure is written out.
                var caught: (any Error)?
                do {
                    try db.savepoint {
                        try db.execute("INSERT INTO items (name) VALUES ('inner')")
                        throw Abort()
                    }
                } catch {
                    caught = error
                }
                #expect(caught is Abort)
                try db.savepoint {
                    try db.execute("INSERT INTO items (name) VALUES ('kept')")
                }
            }
            let names = try pool.read { db in
                try db.query("SELECT name FROM items ORDER BY id").map { try $0["name"] as String }
            }
            #expect(names == ["outer", "kept"])
        }
    }

    @Test func readersRefuseToWrite() throws {
        try TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            let error = #expect(throws: StoreError.self) {
                try pool.read { db in try db.execute("INSERT INTO items (name) VALUES ('x')") }
            }
            #expect(error?.code == .readonly)
        }
    }

    @Test func writeWithoutTransactionRollsBackWhatTheClosureLeftOpen() throws {
        try TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            try pool.writeWithoutTransaction { db in
                #expect(!db.isInTransaction)
                try db.execute("BEGIN")
                try db.execute("INSERT INTO items (name) VALUES ('dangling')")
            }
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM items") } == 0)
        }
    }

    @Test func explicitTransactionsCommitOrRollBack() throws {
        try TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            try pool.writeWithoutTransaction { db in
                try db.transaction { try db.execute("INSERT INTO items (name) VALUES ('committed')") }
                #expect(throws: Abort.self) {
                    try db.transaction {
                        try db.execute("INSERT INTO items (name) VALUES ('rolled back')")
                        throw Abort()
                    }
                }
                #expect(!db.isInTransaction)
            }
            let names = try pool.read { db in try db.query("SELECT name FROM items").map { try $0[0] as String } }
            #expect(names == ["committed"])
        }
    }
}
