import CSystem
import Glibc

/// Starts named, detached POSIX threads: for event loops and other long-running
/// components that own a thread for their whole life (Foundation's `Thread` would drag
/// Foundation and its ICU data into the binary for this alone).
public enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread named `name` (at most 15 characters are kept).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed with \(result)")
        _ = csystem_set_thread_name(thread, String(name.prefix(15)))
        pthread_detach(thread)
    }

    /// Runs blocking `work` on a new detached thread named `name` and suspends the caller (without
    /// blocking its thread) until it returns: for the occasional call that waits (SMTP, outbound
    /// HTTP) from async code. Wrap throwing work in a `Result`.
    public static func run<T: Sendable>(name: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start(name: name) { continuation.resume(returning: work()) }
        }
    }

    /// Suspends the calling thread for `duration` (for periodic background work, never on an event loop).
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
