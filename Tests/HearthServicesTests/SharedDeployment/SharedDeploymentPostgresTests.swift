import Dispatch
import Foundation
@testable import HearthServices
import HearthStore
import Support
import Synchronization
import TestFixtures
import Testing

/// Several instances on one PostgreSQL database (`HEARTH_TEST_POSTGRES_URL`): the change log's
/// order as readers see it, and the job queue's leases. Writers on different connections race
/// for real here; blocking steps run on threads of their own, gated by semaphores, never timed.
@Suite struct SharedDeploymentPostgresTests {
    /// Every `migrations/postgresql/NNNN_name.sql` of the repository, in order.
    private static let migrations: [Migration] = {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../../migrations/postgresql").standardized
        do {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted()
            return try names.map { try Migration(fileName: $0, sql: String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
        } catch {
            fatalError("cannot read the migrations in \(directory.path): \(error)")
        }
    }()

    private func withMigratedStore(_ body: (PostgresStore) async throws -> Void) async throws {
        try await TemporaryPostgresDatabase.withStore(configure: { $0.maxConnections = 6 }) { store in
            try Migrator(migrations: Self.migrations).migrate(store)
            try await body(store)
        }
    }

    /// Runs blocking `work` on a thread of its own and waits for it without blocking a task's thread.
    private func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await DetachedThread.run(name: "test-writer") { Result(catching: work) }.get()
    }

    // MARK: The change log

    @Test func appendsThatWouldCommitOutOfOrderAreReadInSequenceOrder() async throws {
        try await withMigratedStore { store in
            let relay = ChangeLogRelay(pool: store, after: 0)
            let changeLog = ChangeLog(pool: store, bus: relay)
            let subscription = relay.subscribe(to: [.server], bufferSize: 16)
            let recorded = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            // The first writer draws its sequence and keeps its transaction open.
            let first = Task {
                try await onThread {
                    try store.write { db in
                        let event = try changeLog.record(topic: .server, kind: "test.step", payload: 1, in: db)
                        recorded.signal()
                        release.wait()
                        return event.sequence
                    }
                }
            }
            try await onThread { recorded.wait() }
            // A second writer cannot draw a sequence (and commit it first) while the first is open:
            // it waits for the append lock, here until its lock timeout.
            let timedOut = await #expect(throws: StoreError.self) {
                try await store.write { db in
                    try db.execute("SET LOCAL lock_timeout = '200ms'")
                    try changeLog.record(topic: .server, kind: "test.step", payload: 2, in: db)
                }
            }
            #expect(timedOut?.sqlState == "55P03")
            #expect(try await relay.catchUp() == 0)
            // It tries again, waiting; the first commits, then the second draws the next sequence.
            let second = Task {
                try await store.write { db in try changeLog.record(topic: .server, kind: "test.step", payload: 3, in: db).sequence }
            }
            release.signal()
            let firstSequence = try await first.value
            let secondSequence = try await second.value
            #expect(firstSequence < secondSequence)
            #expect(try await relay.catchUp() == 2)
            var iterator = subscription.makeAsyncIterator()
            var delivered: [Int64] = []
            while delivered.count < 2, case .event(let event) = await iterator.next() { delivered.append(event.sequence) }
            #expect(delivered == [firstSequence, secondSequence])
        }
    }

    @Test func aRecordedChangeIsAnnouncedWithItsSequenceOnCommitOnly() async throws {
        try await withMigratedStore { store in
            let changeLog = ChangeLog(pool: store, bus: InProcessEventBus())
            let listener = PostgresNotificationListener(url: store.configuration.url, password: nil, channels: [ChangeLog.notificationChannel])
            let signals = Mutex<[PostgresNotificationListener.Signal]>([])
            let heard = DispatchSemaphore(value: 0)
            let listening = Task {
                try await onThread {
                    listener.run { signal in
                        signals.withLock { $0.append(signal) }
                        heard.signal()
                    }
                }
            }
            try await onThread { heard.wait() }  // connected
            struct RolledBack: Error {}
            await #expect(throws: RolledBack.self) {
                try await store.write { db in
                    try changeLog.record(topic: .server, kind: "test.step", payload: 1, in: db)
                    throw RolledBack()
                }
            }
            let event = try await store.write { db in try changeLog.record(topic: .server, kind: "test.step", payload: 2, in: db) }
            try await onThread { heard.wait() }
            listener.stop()
            try await listening.value
            #expect(signals.withLock { $0 } == [
                .connected, .notification(channel: ChangeLog.notificationChannel, payload: String(event.sequence)),
            ])
        }
    }

    // MARK: The job queue

    private static let kind: JobKind = "test.lease"

    private func enqueue(_ count: Int, on queue: JobQueue, _ store: PostgresStore) async throws -> Set<Int64> {
        try await store.write { db in
            Set(try (0..<count).map { try queue.enqueue(kind: Self.kind, payload: $0, in: db) })
        }
    }

    @Test func aLeaseSkipsTheJobsAnotherWorkerHoldsInsteadOfWaiting() async throws {
        try await withMigratedStore { store in
            let clock = ManualClock()
            let queue = JobQueue(pool: store, clock: clock)
            let all = try await enqueue(6, on: queue, store)
            let leased = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let held = Mutex<Set<Int64>?>(nil)
            let now = clock.now
            let first = Task {
                try await onThread {
                    try store.write { db in
                        let jobs = Set(try queue.lease(kinds: [Self.kind], owner: "one", until: now + 60, limit: 3, at: now, in: db).map(\.id))
                        // Only the first attempt holds its rows until released: the store runs the
                        // closure again when its commit fails to serialize against the second
                        // worker's (both read the queue), and a second wait would never end.
                        guard held.withLock({ held in defer { held = held ?? jobs }; return held == nil }) else { return jobs }
                        leased.signal()
                        release.wait()
                        return jobs
                    }
                }
            }
            try await onThread { leased.wait() }
            // Waiting on the first worker's rows would end in the lock timeout.
            let second = try await store.write { db in
                try db.execute("SET LOCAL lock_timeout = '2s'")
                return Set(try queue.lease(kinds: [Self.kind], owner: "two", until: now + 60, limit: 10, at: now, in: db).map(\.id))
            }
            release.signal()
            let firstIDs = try await first.value
            let heldIDs = try #require(held.withLock { $0 })
            #expect(heldIDs.count == 3)
            #expect(second == all.subtracting(heldIDs))
            // Whatever the first worker finally committed, no job is leased twice.
            #expect(firstIDs.isDisjoint(with: second))
        }
    }

    @Test func twoLeasersOnOneDatabaseRunEachJobOnce() async throws {
        try await withMigratedStore { store in
            let clock = ManualClock()
            let queue = JobQueue(pool: store, clock: clock)
            let all = try await enqueue(120, on: queue, store)
            let now = clock.now
            func leaser(_ owner: String) -> Task<[Int64], any Error> {
                Task {
                    try await onThread {
                        var ids: [Int64] = []
                        while true {
                            let jobs = try store.write { db in
                                try queue.lease(kinds: [Self.kind], owner: owner, until: now + 60, limit: 4, at: now, in: db)
                            }
                            if jobs.isEmpty { return ids }
                            ids += jobs.map(\.id)
                        }
                    }
                }
            }
            let (one, two) = (leaser("one"), leaser("two"))
            let (oneIDs, twoIDs) = (try await one.value, try await two.value)
            #expect(Set(oneIDs).isDisjoint(with: twoIDs))
            #expect(oneIDs.count + twoIDs.count == all.count)
            #expect(Set(oneIDs + twoIDs) == all)
            let attempts = try await store.read { db in
                try db.query("SELECT attempts FROM jobs WHERE kind = ?", [Self.kind.rawValue]).map { row -> Int in try row["attempts"] }
            }
            #expect(attempts == Array(repeating: 1, count: all.count))
        }
    }
}
