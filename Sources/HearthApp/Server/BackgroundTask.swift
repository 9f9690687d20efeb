import Dispatch
import Synchronization

/// A long-running component's `run()` as a task the application starts, cancels at shutdown
/// and waits for before closing what the component uses (the database pool).
final class BackgroundTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts `operation`; call once.
    func start(_ operation: @escaping @Sendable () async -> Void) {
        task.withLock { task in
            precondition(task == nil, "a background task starts once")
            task = Task { [stopped] in
                await operation()
                stopped.signal()
            }
        }
    }

    /// Asks the operation to stop (cancels its task).
    func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// Blocks until the operation has returned; returns at once if it never started.
    func waitUntilStopped() {
        if task.withLock({ $0 }) != nil { stopped.wait() }
    }
}
