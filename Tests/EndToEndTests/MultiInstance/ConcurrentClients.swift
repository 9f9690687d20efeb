import Foundation
import Synchronization

/// Many clients sending at once: `count` threads of their own (not a pool that would run two at a
/// time on two cores), each ready before any is let go, so their requests meet at the servers.
enum ConcurrentClients {
    /// The most threads a test may start: the races need a crowd, the machine has two cores.
    static let maximumCount = 64

    /// Runs `body(index)` for each index below `count` on its own thread, all released together,
    /// and returns every outcome by index once all have ended.
    static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
        precondition((1...maximumCount).contains(count), "between 1 and \(maximumCount) clients")
        let outcomes = Outcomes<T>()
        let ready = DispatchGroup()
        let finished = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        for index in 0..<count {
            ready.enter()
            finished.enter()
            Thread {
                ready.leave()
                go.wait()
                let outcome = Result { try body(index) }
                outcomes.byIndex.withLock { $0[index] = outcome }
                finished.leave()
            }.start()
        }
        ready.wait()
        for _ in 0..<count { go.signal() }
        finished.wait()
        return outcomes.byIndex.withLock { outcomes in (0..<count).map { outcomes[$0]! } }
    }

    /// The outcomes so far, shared by the client threads (a `Mutex` cannot be captured itself).
    private final class Outcomes<T: Sendable>: Sendable {
        let byIndex = Mutex<[Int: Result<T, any Error>]>([:])
    }
}
