import Dispatch
import Support
import Synchronization
import Testing

struct WorkerPoolTests {
    /// Shared counters that worker closures update.
    private final class Counters: Sendable {
        let values = Mutex((running: 0, peak: 0))
        let started = Atomic<Bool>(false)
        let release = DispatchSemaphore(value: 0)
    }

    @Test func returnsWhatTheWorkReturnsAndRethrowsWhatItThrows() async throws {
        struct Failure: Error {}
        let pool = WorkerPool(label: "test", concurrency: 2, queueLimit: 4)
        #expect(try await pool.run { 6 * 7 } == 42)
        await #expect(throws: Failure.self) { try await pool.run { throw Failure() } }
    }

    @Test func neverRunsMoreJobsAtOnceThanItsConcurrency() async throws {
        let pool = WorkerPool(label: "test", concurrency: 2, queueLimit: 100)
        let counters = Counters()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await pool.run {
                        counters.values.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                        var spin = 0
                        for value in 0..<20_000 { spin &+= value }
                        counters.values.withLock { $0.running -= 1 }
                        _ = spin
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counters.values.withLock { $0.peak } <= 2)
        #expect(counters.values.withLock { $0.running } == 0)
    }

    @Test func refusesWorkBeyondTheQueueLimitAndRunsWhatItQueued() async throws {
        let pool = WorkerPool(label: "test", concurrency: 1, queueLimit: 1)
        let counters = Counters()
        // The first job holds the only thread until released; the second waits in the queue.
        let first = Task {
            try await pool.run {
                counters.started.store(true, ordering: .releasing)
                // Blocks the pool's own thread, never one of Swift concurrency's.
                counters.release.wait()
            }
        }
        while !counters.started.load(ordering: .acquiring) { await Task.yield() }
        let second = Task { try await pool.run { 2 } }
        while pool.waitingCount < 1 { await Task.yield() }
        await #expect(throws: WorkerPoolError.saturated) { try await pool.run { 3 } }
        counters.release.signal()
        try await first.value
        #expect(try await second.value == 2)
    }
}
