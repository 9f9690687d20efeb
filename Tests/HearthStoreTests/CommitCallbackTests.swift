import HearthStore
import Synchronization
import Testing

@Suite struct CommitCallbackTests {
    private struct Abort: Error {}

    /// Row ids in the order their commit callbacks ran, shared by concurrent writes.
    private final class CommitOrder: Sendable {
        let ids = Mutex<[Int64]>([])
    }

    private func makeTable(_ pool: DatabasePool) throws {
        try pool.write { db in
            try db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
    }

    @Test func callbacksRunAfterCommitInRegistrationOrderAndSeeTheCommittedState() throws {
        try TemporaryDatabase.withPath { path in
            let pool = try DatabasePool(path: path)
            defer { pool.close() }
            // A second pool on the same file reads from outside the writer's connection.
            let observer = try DatabasePool(path: path)
            defer { observer.close() }
            try makeTable(pool)
            var calls: [String] = []
            try pool.write { db in
                try db.execute("INSERT INTO items (name) VALUES ('kettle')")
                db.afterCommit {
                    let count = try? observer.read { db in try db.scalar(Int.self, "SELECT count(*) FROM items") }
                    calls.append("first saw \(count ?? -1)")
                }
                db.afterCommit { calls.append("second") }
                #expect(calls.isEmpty)
            }
            #expect(calls == ["first saw 1", "second"])
        }
    }

    @Test func aRolledBackTransactionRunsNoCallbacks() throws {
        try TemporaryDatabase.withPool { pool in
            var ran = false
            #expect(throws: Abort.self) {
                try pool.write { db in
                    db.afterCommit { ran = true }
                    throw Abort()
                }
            }
            try pool.write { _ in }
            #expect(!ran)
        }
    }

    @Test func aFailedCommitRunsNoCallbacks() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE parents (id INTEGER PRIMARY KEY)")
                try db.execute("""
                    CREATE TABLE children (
                        id INTEGER PRIMARY KEY,
                        parent_id INTEGER NOT NULL REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED
                    )
                    """)
            }
            var ran = false
            #expect(throws: StoreError.self) {
                try pool.write { db in
                    // A deferred foreign key is checked at COMMIT, which therefore fails.
                    try db.execute("INSERT INTO children (parent_id) VALUES (42)")
                    db.afterCommit { ran = true }
                }
            }
            #expect(!ran)
        }
    }

    @Test func anUndoneSavepointDropsOnlyItsOwnCallbacks() throws {
        try TemporaryDatabase.withPool { pool in
            var calls: [String] = []
            try pool.write { db in
                db.afterCommit { calls.append("outer") }
                #expect(throws: Abort.self) {
                    try db.savepoint {
                        db.afterCommit { calls.append("undone") }
                        throw Abort()
                    }
                }
                try db.savepoint {
                    db.afterCommit { calls.append("released") }
                }
            }
            #expect(calls == ["outer", "released"])
        }
    }

    @Test func anOutermostSavepointRunsItsCallbacksWhenReleased() throws {
        try TemporaryDatabase.withPool { pool in
            var calls: [String] = []
            try pool.writeWithoutTransaction { db in
                try db.savepoint {
                    db.afterCommit { calls.append("committed") }
                    #expect(calls.isEmpty)
                }
                #expect(calls == ["committed"])
                #expect(!db.isInTransaction)
            }
        }
    }

    @Test func concurrentWritesRunTheirCallbacksInCommitOrder() async throws {
        try await TemporaryDatabase.withPool { pool in
            try makeTable(pool)
            let order = CommitOrder()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await pool.write { db in
                            let id = try db.scalar(Int64.self, "INSERT INTO items (name) VALUES (?) RETURNING id", ["item \(index)"])!
                            db.afterCommit { order.ids.withLock { $0.append(id) } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Row ids grow with commit order, as the single writer serializes the transactions.
            #expect(order.ids.withLock { $0 } == Array(1...50))
        }
    }
}
