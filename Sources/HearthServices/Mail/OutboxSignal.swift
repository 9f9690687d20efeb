import Synchronization

/// Wakes the one task waiting for new mail: ``signal()`` after a commit that enqueued
/// mail, ``wait(timeout:)`` in the delivery worker. A signal sent while nobody waits is kept
/// for the next wait, so none is lost between the worker's check and its wait.
final class OutboxSignal: Sendable {
    private struct State {
        var isSignalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next one.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.isSignalled = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled, when `timeout` passes (nil waits without limit), or when the
    /// task is cancelled.
    func wait(timeout: Duration?) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSignal() }
            if let timeout {
                group.addTask { try? await Task.sleep(for: timeout) }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isSignalled || Task.isCancelled {
                        state.isSignalled = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
