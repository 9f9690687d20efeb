import Dispatch
import HearthStore
import Testing

@Suite struct SnapshotTests {
    @Test func aReadKeepsItsSnapshotWhileTheWriterCommits() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in
                try db.execute("CREATE TABLE counters (value INTEGER NOT NULL)")
                try db.execute("INSERT INTO counters (value) VALUES (1)")
            }
            let readStarted = DispatchSemaphore(value: 0)
            let writeCommitted = DispatchSemaphore(value: 0)
            let reader = Background.run {
                try pool.read { db -> (Int?, Int?) in
                    let before = try db.scalar(Int.self, "SELECT sum(value) FROM counters")
                    readStarted.signal()
                    writeCommitted.wait()
                    let after = try db.scalar(Int.self, "SELECT sum(value) FROM counters")
                    return (before, after)
                }
            }
            readStarted.wait()
            try pool.write { db in try db.execute("INSERT INTO counters (value) VALUES (41)") }
            writeCommitted.signal()
            let (before, after) = try reader.join()
            #expect(before == 1)
            #expect(after == 1)
            #expect(try pool.read { db in try db.scalar(Int.self, "SELECT sum(value) FROM counters") } == 42)
        }
    }

    @Test func theSnapshotIsPinnedBeforeTheClosureRunsItsFirstQuery() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db in try db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY)") }
            let readStarted = DispatchSemaphore(value: 0)
            let writeCommitted = DispatchSemaphore(value: 0)
            let reader = Background.run {
                try pool.read { db -> Int? in
                    readStarted.signal()
                    writeCommitted.wait()
                    return try db.scalar(Int.self, "SELECT count(*) FROM events")
                }
            }
            readStarted.wait()
            try pool.write { db in try db.execute("INSERT INTO events DEFAULT VALUES") }
            writeCommitted.signal()
            #expect(try reader.join() == 0)
        }
    }
}
