import Dispatch
import Glibc
import HearthStore
import Testing

@Suite struct AsyncAccessTests {
    @Test func manyConcurrentTasksReadAndWrite() async throws {
        try await TemporaryDatabase.withPool(configuration: .init(readerCount: 2)) { pool in
            try await pool.write { db in try db.execute("CREATE TABLE hits (task INTEGER NOT NULL)") }
            let taskCount = 64
            let seen = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<taskCount {
                    group.addTask {
                        try await pool.write { db in try db.execute("INSERT INTO hits (task) VALUES (?)", [task]) }
                        return try await pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM hits WHERE task = ?", [task]) } ?? 0
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(seen == taskCount, "each task read its own committed write")
            let total = try await pool.read { db in try db.scalar(Int.self, "SELECT count(DISTINCT task) FROM hits") }
            #expect(total == taskCount)
        }
    }

    @Test func asyncWritesRollBackWhenTheClosureThrows() async throws {
        struct Abort: Error {}
        try await TemporaryDatabase.withPool { pool in
            try await pool.write { db in try db.execute("CREATE TABLE t (x)") }
            await #expect(throws: Abort.self) {
                try await pool.write { db in
                    try db.execute("INSERT INTO t (x) VALUES (1)")
                    throw Abort()
                }
            }
            #expect(try await pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 0)
        }
    }

    /// More waiting tasks than the cooperative pool has threads: if waiting blocked a
    /// thread, the task that frees the reader could never run and this would hang.
    @Test(.timeLimit(.minutes(1)))
    func waitingForAConnectionDoesNotBlockThreads() async throws {
        try await TemporaryDatabase.withPool(configuration: .init(readerCount: 1)) { pool in
            let held = HeldConnection(.reader, of: pool)
            let waiterCount = 32
            try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<waiterCount {
                    group.addTask { try await pool.read { db in try db.scalar(Int.self, "SELECT 1") } }
                }
                group.addTask {
                    // Runs on the cooperative pool only if the waiters left threads free.
                    await waitUntil { pool.statistics.readers.waiting == waiterCount }
                    held.release()
                    return 0
                }
                let sum = try await group.reduce(0) { $0 + ($1 ?? 0) }
                #expect(sum == waiterCount)
            }
            try held.join()
            #expect(pool.statistics.readers.waits == waiterCount)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func readPreferringCallingThreadReadsInPlaceWhenAReaderIsIdleAndWaitsOtherwise() async throws {
        try await TemporaryDatabase.withPool(configuration: .init(readerCount: 1)) { pool in
            let caller = pthread_self()
            let inPlace = try await pool.readPreferringCallingThread { db in
                (pthread_equal(pthread_self(), caller) != 0, try db.scalar(Int.self, "SELECT 7"))
            }
            #expect(inPlace.0, "an idle reader serves the read on the calling thread")
            #expect(inPlace.1 == 7)
            #expect(pool.statistics.readers.waits == 0)

            let held = HeldConnection(.reader, of: pool)
            let waiter = Task { try await pool.readPreferringCallingThread { db in try db.scalar(Int.self, "SELECT 8") } }
            await waitUntil { pool.statistics.readers.waiting == 1 }
            held.release()
            #expect(try await waiter.value == 8)
            try held.join()
            #expect(pool.statistics.readers.waits == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledWaiterLeavesTheQueue() async throws {
        try await TemporaryDatabase.withPool { pool in
            let held = HeldConnection(.writer, of: pool)
            let waiter = Task { try await pool.write { db in try db.execute("CREATE TABLE never (x)") } }
            await waitUntil { pool.statistics.writer.waiting == 1 }
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(pool.statistics.writer.waiting == 0)
            held.release()
            try held.join()
            let tables = try await pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM sqlite_master") }
            #expect(tables == 0)
        }
    }
}
