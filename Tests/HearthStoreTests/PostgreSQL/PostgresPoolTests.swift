import Foundation
import Dispatch
import HearthStore
import Testing

/// The PostgreSQL store's pool: its connection limit and acquire timeout, and opening errors.
@Suite struct PostgresPoolTests {
    @Test func theConnectionLimitHoldsAndAWaiterGivesUpAtTheAcquireTimeout() throws {
        try TemporaryPostgresDatabase.withStore(configure: {
            $0.maxConnections = 2
            $0.acquireTimeout = .milliseconds(200)
        }) { store in
            let holders = HeldReads(2, on: store)
            #expect(store.statistics.inUse == 2)
            let error = #expect(throws: StoreError.self) {
                try store.read { db in try db.scalar(Int.self, "SELECT 1") }
            }
            #expect(error?.category == .busy)
            try holders.release()
            // At the limit minus one, a read finds a connection.
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT 1") } == 1)
            #expect(store.statistics.capacity == 2)
        }
    }

    @Test func aFreshStoreHoldsOneConnectionAndOpensMoreUnderConcurrentReadsUpToTheLimitOnly() async throws {
        try await TemporaryPostgresDatabase.withStore(configure: {
            $0.maxConnections = 3
            $0.acquireTimeout = .seconds(2)
        }) { store in
            let observer = try SessionObserver(of: store)
            defer { observer.close() }
            #expect(try observer.sessions() == 1)
            for _ in 0..<5 {
                _ = try await store.read { db in try db.scalar(Int.self, "SELECT 1") }
            }
            #expect(try observer.sessions() == 1)

            let holders = HeldReads(3, on: store)
            #expect(try observer.sessions() == 3)
            // A fourth reader waits the acquire timeout, then fails clearly; nothing more opens.
            let started = ContinuousClock.now
            let error = #expect(throws: StoreError.self) {
                try store.read { db in try db.scalar(Int.self, "SELECT 1") }
            }
            #expect(started.duration(to: .now) >= .seconds(2))
            #expect(error?.category == .busy)
            #expect(error?.message == "no PostgreSQL connection became free within 2.0 seconds (the pool's acquire timeout)")
            #expect(try observer.sessions() == 3)
            try holders.release()

            // More concurrent readers than connections share the three.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask { _ = try await store.read { db in try db.scalar(Int.self, "SELECT 1") } }
                }
                try await group.waitForAll()
            }
            #expect(try observer.sessions() == 3)
        }
    }

    @Test func connectionsIdlePastTheTimeoutCloseAllButTheOneLentNextAndReopenWhenNeeded() async throws {
        try await TemporaryPostgresDatabase.withStore(configure: {
            $0.maxConnections = 3
            $0.idleTimeout = .milliseconds(1)
        }) { store in
            let observer = try SessionObserver(of: store)
            defer { observer.close() }
            let peak = HeldReads(3, on: store)
            #expect(try observer.sessions() == 3)
            try peak.release()
            // Reads go on (on the connection lent next) while the other two sit idle past the
            // timeout; the pool looks for idle ones as it lends, and closes them off the caller's
            // thread: each round trip of the loop lets that happen.
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while try observer.sessions() != 1, ContinuousClock.now < deadline {
                _ = try await store.read { db in try db.scalar(Int.self, "SELECT 1") }
            }
            #expect(try observer.sessions() == 1)
            #expect(store.statistics.inUse == 0)
            // A new peak reopens them.
            let again = HeldReads(3, on: store)
            #expect(try observer.sessions() == 3)
            try again.release()
        }
    }

    @Test func aWrongPasswordFailsWithTheURLRedacted() throws {
        try TemporaryPostgresDatabase.withURL { url in
            // The test cluster trusts loopback, so make the failure a missing database instead
            // and check that the password given in the URL stays out of the message.
            let broken = url.replacingOccurrences(of: "://", with: "://hearth:s3cret-pass@").replacingOccurrences(of: "hearth_test_", with: "missing_")
            let error = #expect(throws: StoreError.self) {
                _ = try PostgresStore(configuration: .init(url: broken, maxConnections: 1))
            }
            #expect(error?.code == .cantOpen)
            #expect(error.map { "\($0)" }?.contains("s3cret-pass") == false)
            #expect(error.map { "\($0)" }?.contains("***") == true)
        }
    }
}

/// Another instance's view of a store's database: the server's sessions on it, but its own.
private struct SessionObserver {
    private let observer: PostgresStore

    init(of store: PostgresStore) throws {
        observer = try PostgresStore(configuration: .init(url: store.configuration.url, maxConnections: 1))
    }

    /// The client sessions on the database, the observer's own left out.
    func sessions() throws -> Int? {
        try observer.read { db in
            try db.scalar(Int.self, """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
                """)
        }
    }

    func close() { observer.close() }
}

/// Reads that each hold a connection of a store until released: how a test fills its pool.
private struct HeldReads {
    private let reads: [Background<Void>]
    private let released = DispatchSemaphore(value: 0)

    /// Starts `count` reads on `store` and returns once every one holds its connection.
    init(_ count: Int, on store: PostgresStore) {
        let held = DispatchSemaphore(value: 0)
        let released = released
        reads = (0..<count).map { _ in
            Background.run {
                try store.read { _ in
                    held.signal()
                    released.wait()
                }
            }
        }
        for _ in reads { held.wait() }
    }

    /// Lets every read finish and waits for it.
    func release() throws {
        for _ in reads { released.signal() }
        for read in reads { try read.join() }
    }
}

/// A connection the server dropped (a restart, a failover, `pg_terminate_backend`) is reopened.
@Suite struct PostgresReconnectionTests {
    @Test func aConnectionTheServerDroppedIsReopenedAndTheReadAndWriteRunAgain() throws {
        try TemporaryPostgresDatabase.withStore(configure: { $0.maxConnections = 1 }) { store in
            try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
            let admin = try PostgresStore(configuration: .init(url: store.configuration.url, maxConnections: 1))
            defer { admin.close() }
            func dropStoreConnection() throws {
                let pid = try store.read { db in try db.scalar(Int.self, "SELECT pg_backend_pid()") }
                let terminated = try admin.read { db in try db.scalar(Bool.self, "SELECT pg_terminate_backend(CAST(? AS INTEGER), 5000)", [pid]) }
                #expect(terminated == true)
            }
            try dropStoreConnection()
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 0)
            try dropStoreConnection()
            try store.write { db in try db.execute("INSERT INTO t VALUES (1)") }
            #expect(try store.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") } == 1)
        }
    }
}
