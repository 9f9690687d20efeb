import Dispatch
import HearthStore
import TestPython
import Testing

/// `DatabasePool.changeMark()`: equal marks mean nothing committed in between, whoever wrote.
/// A mark that stays equal across a commit would let a cache serve what the commit changed, so
/// every test commits between two marks and expects them to differ, through each kind of writer:
/// the pool's own, another connection, another process, and with the readers taking turns.
struct ChangeMarkTests {
    private func withTable(readers: Int = 4, _ body: (DatabasePool) async throws -> Void) async throws {
        var configuration = DatabasePool.Configuration()
        configuration.readerCount = readers
        try await TemporaryDatabase.withPool(configuration: configuration) { pool in
            try await pool.write { db in try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
            try await body(pool)
        }
    }

    private func mark(_ pool: DatabasePool) async throws -> ChangeMark {
        try #require(try await pool.changeMark(), "SQLite always answers a mark")
    }

    @Test func marksStayEqualWhileNothingCommits() async throws {
        try await withTable { pool in
            // The first report of each reader moves the count: look with all of them first.
            for _ in 0..<8 { _ = try await mark(pool) }
            let first = try await mark(pool)
            for _ in 0..<20 {
                #expect(try await mark(pool) == first)
            }
            _ = try await pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM notes") }
            #expect(try await mark(pool) == first, "a read commits nothing")
        }
    }

    @Test func everyCommitOfThePoolsWriterMovesTheNextMark() async throws {
        try await withTable { pool in
            for index in 0..<20 {
                let before = try await mark(pool)
                try await pool.write { db in try db.execute("INSERT INTO notes (id, body) VALUES (?, 'x')", [index]) }
                #expect(try await mark(pool) != before)
            }
        }
    }

    @Test func aCommitOfAnotherConnectionMovesTheNextMark() async throws {
        try await withTable { pool in
            let other = try DatabasePool(path: pool.path)
            defer { other.close() }
            let before = try await mark(pool)
            try await other.write { db in try db.execute("INSERT INTO notes (id, body) VALUES (1, 'elsewhere')") }
            #expect(try await mark(pool) != before)
        }
    }

    /// Another process (Python's `sqlite3`, the system's SQLite), as `hearth admin` or a second
    /// server during a rolling restart would be: the data version sees commits through the
    /// shared WAL index, not through anything of this process.
    @Test func aCommitOfAnotherProcessMovesTheNextMark() async throws {
        try await withTable { pool in
            for _ in 0..<4 { _ = try await mark(pool) }
            let before = try await mark(pool)
            _ = try TestPython.runScript(
                "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.execute(\"INSERT INTO notes (id, body) VALUES (7, 'python')\")\nc.commit()",
                [pool.path])
            #expect(try await mark(pool) != before)
            #expect(try await pool.read { db in try db.scalar(String.self, "SELECT body FROM notes WHERE id = 7") } == "python")
        }
    }

    /// Each reader looks at its own data version: a mark taken on a reader other than the one
    /// that took the earlier mark still differs after a commit, whether or not that reader
    /// looked before the commit. Holding readers busy makes the marks move between them.
    @Test func aMarkOnAnyReaderDiffersAfterACommit() async throws {
        try await withTable(readers: 2) { pool in
            for index in 0..<10 {
                let before = try await mark(pool)
                try await pool.write { db in try db.execute("INSERT INTO notes (id, body) VALUES (?, 'x')", [index]) }
                // One reader busy: the mark runs on the other.
                let holding = DispatchSemaphore(value: 0)
                let release = DispatchSemaphore(value: 0)
                let busy = Background.run {
                    try pool.read { db -> Int? in
                        holding.signal()
                        release.wait()
                        return try db.scalar(Int.self, "SELECT count(*) FROM notes")
                    }
                }
                holding.wait()
                let during = try await mark(pool)
                release.signal()
                _ = try busy.join()
                #expect(during != before)
                #expect(try await mark(pool) != before)
            }
        }
    }
}
