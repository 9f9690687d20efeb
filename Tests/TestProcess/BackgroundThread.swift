import Glibc

/// Work running on a thread of its own (not a Dispatch or cooperative-pool thread, so it may
/// block as long as it likes), whose result is taken with `join()`. Every instance must be
/// joined: the thread is joinable, and joining is what hands its result over.
final class BackgroundThread<Value: Sendable> {
    /// The result, written by the thread just before it ends.
    private final class Slot: @unchecked Sendable {
        // Written once by the background thread before it returns; read only by `join()` after
        // `pthread_join`, which orders that write before the read.
        var value: Value?
    }

    private let thread: pthread_t
    private let slot: Slot

    /// Starts `body` on a new thread.
    /// - Throws: `ChildProcessError` (operation `pthread_create`) when no thread can be created.
    init(for executable: String, _ body: @escaping @Sendable () -> Value) throws {
        let slot = Slot()
        self.slot = slot
        thread = try startThread(for: executable) { slot.value = body() }
    }

    /// Waits for the thread to finish and returns what `body` returned.
    func join() -> Value {
        pthread_join(thread, nil)
        return slot.value!
    }
}

/// What a new thread runs; not generic, because a C function pointer cannot capture generic context.
private final class ThreadStart: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Starts a joinable thread running `run`.
private func startThread(for executable: String, _ run: @escaping @Sendable () -> Void) throws -> pthread_t {
    let start = Unmanaged.passRetained(ThreadStart(run)).toOpaque()
    var thread = pthread_t()
    let code = pthread_create(&thread, nil, { context in
        Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, start)
    if code != 0 {
        Unmanaged<ThreadStart>.fromOpaque(start).release()
        throw ChildProcessError(code: code, operation: "pthread_create", executable: executable)
    }
    return thread
}
