import Dispatch
import Foundation
import HearthStore
import Synchronization

/// Work running on its own thread, joined later: lets a test hold a connection on one
/// thread while it acts on another, coordinated with semaphores instead of sleeps.
final class Background<Value: Sendable>: Sendable {
    private let outcome = Mutex<Result<Value, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    private init() {}

    /// Starts `body` on a new thread.
    static func run(_ body: @escaping @Sendable () throws -> Value) -> Background {
        let background = Background()
        Thread.detachNewThread {
            let result = Result { try body() }
            background.outcome.withLock { $0 = result }
            background.finished.signal()
        }
        return background
    }

    /// Waits for the thread to finish and returns its value or rethrows its error.
    func join() throws -> Value {
        finished.wait()
        finished.signal()
        return try outcome.withLock { $0! }.get()
    }
}

/// Spins (yielding the processor, never sleeping) until `condition` holds: for states
/// that are observable but have no notification, such as "a caller is now queued".
/// On a thread of its own only: spinning on one of Swift's cooperative threads can keep the
/// very task it waits for from running; async tests use the `async` form.
func waitUntil(_ condition: () -> Bool) {
    while !condition() {
        sched_yield()
    }
}

/// The form of ``waitUntil(_:)`` for async code: yields to other tasks between checks, so the
/// task it waits for gets a cooperative thread even when every one is busy waiting.
func waitUntil(_ condition: () -> Bool) async {
    while !condition() {
        await Task.yield()
    }
}

/// One of a pool's connections held by a thread of its own until ``release()``, so a test
/// can watch what other callers do while none is free.
final class HeldConnection: Sendable {
    /// Which of the pool's connections to hold.
    enum Kind {
        case reader, writer
    }

    private let released = DispatchSemaphore(value: 0)
    private let holder: Background<Void>

    /// Returns once the connection is held.
    init(_ kind: Kind, of pool: DatabasePool) {
        let holding = DispatchSemaphore(value: 0)
        let released = released
        let hold: @Sendable (Database) throws -> Void = { _ in
            holding.signal()
            released.wait()
        }
        holder = Background.run {
            switch kind {
            case .reader: try pool.read(hold)
            case .writer: try pool.write(hold)
            }
        }
        holding.wait()
    }

    /// Lets the holding thread give the connection back.
    func release() {
        released.signal()
    }

    /// Waits until the connection has been given back.
    func join() throws {
        try holder.join()
    }
}
