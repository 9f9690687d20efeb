import FoundationEssentials
import Synchronization

/// Wakes the scheduler's loop while it sleeps until its next deadline: when a commit enqueued
/// a job due before that deadline, or a running job finished (a worker is free again).
///
/// A signal sent while the loop is not waiting is kept (the earliest one), so none is lost
/// between the loop's look at the table and its wait: the next wait returns at once if the
/// kept signal is due before its deadline.
final class JobWakeUp: Sendable {
    private struct Waiter {
        var deadline: Date?
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var earliestSignal: Date?
        var waiter: Waiter?
    }

    private let state = Mutex(State())

    /// Says that work is due at `dueAt` (`.distantPast`: now, whatever the deadline).
    func signal(dueAt: Date) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.earliestSignal = min(state.earliestSignal ?? dueAt, dueAt)
                return nil
            }
            if let deadline = waiter.deadline, dueAt >= deadline { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Returns at `deadline` by `clock` (nil: no deadline), on a signal due before it, or when
    /// the task is cancelled.
    func wait(until deadline: Date?, clock: any ServiceClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSignal(before: deadline) }
            if let deadline {
                group.addTask { try? await clock.sleep(until: deadline) }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForSignal(before deadline: Date?) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    let kept = state.earliestSignal
                    state.earliestSignal = nil
                    if Task.isCancelled { return true }
                    if let kept, deadline.map({ kept < $0 }) ?? true { return true }
                    state.waiter = Waiter(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter?.continuation
            }
            waiter?.resume()
        }
    }
}
