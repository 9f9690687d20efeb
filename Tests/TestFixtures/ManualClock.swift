import FoundationEssentials
import HearthServices
import Synchronization

/// A clock tests move by hand: wall time and monotonic seconds advance together, and tasks
/// sleeping on it (the job scheduler waiting for its next due time) wake when it is moved
/// past their deadline, never on their own.
public final class ManualClock: ServiceClock {
    private struct State {
        var offset: Double = 0
        var sleepers: [Int: (deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var nextSleeper = 0
        /// Tests waiting for someone to sleep until a deadline.
        var watchers: [(deadline: Date, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let start: Date

    /// A clock reading `start` until it is moved.
    public init(start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        self.start = start
    }

    /// The wall-clock time.
    public var now: Date { start.addingTimeInterval(state.withLock { $0.offset }) }
    /// Monotonic seconds.
    public var monotonicSeconds: Double { state.withLock { $0.offset } + 1000 }

    /// Moves both clocks forward and wakes the sleepers whose deadline has come.
    public func advance(seconds: Double) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.offset += seconds
            let now = start.addingTimeInterval(state.offset)
            let due = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return due.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once the clock has been moved to `deadline` or past it.
    public func sleep(until deadline: Date) async throws {
        let sleeper = state.withLock { state -> Int in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= start.addingTimeInterval(state.offset) { return .success(()) }
                    state.sleepers[sleeper] = (deadline, continuation)
                    let watching = state.watchers.filter { $0.deadline == deadline }
                    state.watchers.removeAll { $0.deadline == deadline }
                    for watcher in watching { watcher.continuation.resume() }
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: sleeper) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once a task sleeps on this clock until exactly `deadline`: how a test learns
    /// that a loop finished its work and went back to sleep, without sleeping itself.
    public func waitForSleeper(until deadline: Date) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isSleeping = state.withLock { state -> Bool in
                if state.sleepers.values.contains(where: { $0.deadline == deadline }) { return true }
                state.watchers.append((deadline, continuation))
                return false
            }
            if isSleeping { continuation.resume() }
        }
    }
}
