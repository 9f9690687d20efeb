import Dispatch
import HearthStore
import Synchronization
import Testing

/// Transactions on PostgreSQL: savepoints, commit callbacks, snapshots and the transparent
/// retry of serialization failures.
@Suite struct PostgresTransactionTests {
    @Test func aFailedSavepointIsUndoneAloneAndTheTransactionGoesOn() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let rows = try store.write { db in
                try db.execute("CREATE TABLE t (x BIGINT UNIQUE)")
                try db.execute("INSERT INTO t VALUES (1)")
                #expect(throws: StoreError.self) {
                    try db.savepoint {
                        try db.execute("INSERT INTO t VALUES (2)")
                        try db.execute("INSERT INTO t VALUES (1)")
                    }
                }
                try db.execute("INSERT INTO t VALUES (3)")
                return try db.query("SELECT x FROM t ORDER BY x").map { try $0["x"] as Int }
            }
            #expect(rows == [1, 3])
        }
    }

    @Test func anOutermostSavepointOpensAndCommitsATransaction() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
            let ran = try store.writeWithoutTransaction { db in
                let ran = Mutex(false)
                try db.savepoint {
                    try db.execute("INSERT INTO t VALUES (1)")
                    db.afterCommit { ran.withLock { $0 = true } }
                }
                return ran.withLock { $0 }
            }
            #expect(ran)
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 1)
        }
    }

    @Test func commitCallbacksRunInOrderAfterCommitAndNotAfterRollback() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let calls = Mutex<[String]>([])
            try store.write { db in
                try db.execute("CREATE TABLE t (x BIGINT)")
                db.afterCommit { calls.withLock { $0.append("first") } }
                db.afterCommit { calls.withLock { $0.append("second") } }
                #expect(calls.withLock { $0 }.isEmpty)
            }
            _ = try? store.write { db in
                db.afterCommit { calls.withLock { $0.append("rolled back") } }
                try db.execute("INSERT INTO missing VALUES (1)")
            }
            #expect(calls.withLock { $0 } == ["first", "second"])
        }
    }

    @Test func aReadSeesOneSnapshotWhileAWriterCommits() async throws {
        try await TemporaryPostgresDatabase.withStore { store in
            try await store.write { db in
                try db.execute("CREATE TABLE t (x BIGINT)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
            let (before, after) = try await store.read { db in
                let before = try db.scalar(Int.self, "SELECT count(*) FROM t")
                // A write on another connection commits in the middle of this read.
                try Background.run { try store.write { db in try db.execute("INSERT INTO t VALUES (2)") } }.join()
                return (before, try db.scalar(Int.self, "SELECT count(*) FROM t"))
            }
            #expect(before == 1)
            #expect(after == 1)
            #expect(try await store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 2)
        }
    }

    @Test func readsCannotWrite() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
            #expect(throws: StoreError.self) {
                try store.read { db in try db.execute("INSERT INTO t VALUES (1)") }
            }
        }
    }

    /// Write skew: each transaction reads the table and inserts what it counted. The first
    /// attempt of `a` reads, waits while `b` reads, inserts and commits, then inserts: PostgreSQL
    /// refuses to serialize it, the store runs it again, and the second attempt sees `b`'s row.
    @Test func aSerializationFailureIsRetriedTransparentlyWithoutTheFailedAttemptsCallbacks() throws {
        try TemporaryPostgresDatabase.withStore { store in
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
            let attempts = Mutex(0)
            let callbacks = Mutex<[Int]>([])
            let aHasRead = DispatchSemaphore(value: 0)
            let bCommitted = DispatchSemaphore(value: 0)
            let a = Background.run {
                try store.write { db in
                    let attempt = attempts.withLock { $0 += 1; return $0 }
                    let count = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? 0
                    db.afterCommit { callbacks.withLock { $0.append(attempt) } }
                    if attempt == 1 {
                        aHasRead.signal()
                        bCommitted.wait()
                    }
                    try db.execute("INSERT INTO t VALUES (?)", [count + 1])
                }
            }
            aHasRead.wait()
            try store.write { db in
                let count = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? 0
                try db.execute("INSERT INTO t VALUES (?)", [count + 1])
            }
            bCommitted.signal()
            try a.join()
            #expect(attempts.withLock { $0 } == 2)
            #expect(callbacks.withLock { $0 } == [2])
            #expect(try store.read { db in try db.query("SELECT x FROM t ORDER BY x").map { try $0["x"] as Int } } == [1, 2])
        }
    }

    @Test func aWriteThatNeverSerializesFailsAfterItsAttempts() throws {
        try TemporaryPostgresDatabase.withStore(configure: { $0.maxWriteAttempts = 1 }) { store in
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
            let aHasRead = DispatchSemaphore(value: 0)
            let bCommitted = DispatchSemaphore(value: 0)
            let a = Background.run {
                try store.write { db in
                    let count = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? 0
                    aHasRead.signal()
                    bCommitted.wait()
                    try db.execute("INSERT INTO t VALUES (?)", [count + 1])
                }
            }
            aHasRead.wait()
            try store.write { db in
                let count = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? 0
                try db.execute("INSERT INTO t VALUES (?)", [count + 1])
            }
            bCommitted.signal()
            let error = #expect(throws: StoreError.self) { try a.join() }
            #expect(error?.category == .serializationFailure)
        }
    }

    @Test func theCommitCountMovesByTwoPerWriteAndAdvancesForOtherInstances() throws {
        try TemporaryPostgresDatabase.withStore { store in
            let start = store.commitCount
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
            #expect(store.commitCount == start + 2)
            store.advanceCommitCount()
            #expect(store.commitCount == start + 4)
        }
    }
}
