import Synchronization

/// Moments in the life of test jobs that `/_test/jobs` waits for instead of polling: a job's
/// handler started (and recorded its effect), or the job finished for good. Kept for this
/// process only; what finished before a restart is read from the database.
final class TestJobSignals: Sendable {
    /// A moment of one job.
    enum Moment: Hashable {
        /// The handler recorded its effect and is about to block.
        case started(Int64)
        /// The job was recorded done or dead.
        case finished(Int64)
    }

    private struct State {
        var reached: Set<Moment> = []
        var waiters: [Int: (moment: Moment, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Records `moment` and wakes whoever waits for it.
    func reach(_ moment: Moment) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.reached.insert(moment)
            let matching = state.waiters.filter { $0.value.moment == moment }.map(\.key)
            return matching.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until `moment` is reached or `timeout` passed (a hang guard); returns whether it was.
    func wait(for moment: Moment, timeout: Duration) async -> Bool {
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let isReached = state.withLock { state -> Bool in
                        if state.reached.contains(moment) { return true }
                        state.waiters[waiter] = (moment, continuation)
                        return false
                    }
                    if isReached { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            state.withLock { $0.waiters.removeValue(forKey: waiter) }?.continuation.resume()
        }
        return state.withLock { $0.reached.contains(moment) }
    }
}
