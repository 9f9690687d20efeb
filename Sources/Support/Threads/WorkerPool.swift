import Synchronization

/// Why a ``WorkerPool`` refused work.
public struct WorkerPoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pool already has as much work waiting as it accepts.
    public static let saturated = WorkerPoolError(description: "the worker pool's queue is full")

    public let description: String
}

/// Runs blocking, CPU-heavy work (password hashing) on at most `concurrency` threads at a
/// time, off the event loops and off Swift's cooperative pool, with a bounded queue.
///
/// The threads are its own (started when work arrives, ending when none is left), not
/// Dispatch's global queues: on Linux those are the threads Swift concurrency's global
/// executor runs on, so blocking work there would starve every task in the process.
///
/// The bound is deliberate: under a flood of logins, waiting work is refused with
/// ``WorkerPoolError/saturated`` at once rather than queued without end, so memory (scrypt
/// takes 128 MiB per hash while it runs) and latency stay bounded.
public final class WorkerPool: Sendable {
    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
        var nextWaiting = 0
    }

    /// The most jobs that run at once.
    public let concurrency: Int
    /// The most jobs that wait for a thread.
    public let queueLimit: Int
    private let label: String
    private let state = Mutex(State())

    /// Creates a pool.
    /// - Parameter label: Names the threads in debuggers and `top -H`.
    public init(label: String, concurrency: Int, queueLimit: Int) {
        precondition(concurrency >= 1 && queueLimit >= 0, "a worker pool needs at least one thread")
        self.concurrency = concurrency
        self.queueLimit = queueLimit
        self.label = label
    }

    /// How many jobs wait for a thread now (for metrics and tests).
    public var waitingCount: Int {
        state.withLock { $0.waiting.count - $0.nextWaiting }
    }

    /// Runs `body` on a worker thread and returns its result.
    /// - Throws: ``WorkerPoolError/saturated`` when `queueLimit` jobs are already waiting,
    ///   or what `body` throws.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable () -> Void = { continuation.resume(with: Result { try body() }) }
            let startsNow = state.withLock { state -> Bool? in
                if state.running < concurrency {
                    state.running += 1
                    return true
                }
                guard state.waiting.count - state.nextWaiting < queueLimit else { return nil }
                state.waiting.append(job)
                return false
            }
            switch startsNow {
            case true?: DetachedThread.start(name: label) { self.work(startingWith: job) }
            case false?: break
            case nil: continuation.resume(throwing: WorkerPoolError.saturated)
            }
        }
    }

    /// Runs `job`, then waiting jobs until none is left, then gives the thread back.
    private func work(startingWith job: @escaping @Sendable () -> Void) {
        var next: (@Sendable () -> Void)? = job
        while let current = next {
            current()
            next = state.withLock { state in
                guard state.nextWaiting < state.waiting.count else {
                    state.running -= 1
                    state.waiting.removeAll(keepingCapacity: true)
                    state.nextWaiting = 0
                    return nil
                }
                let job = state.waiting[state.nextWaiting]
                state.nextWaiting += 1
                return job
            }
        }
    }
}
