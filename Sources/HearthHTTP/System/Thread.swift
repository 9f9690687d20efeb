import CSystem
import Glibc

/// Starting a detached POSIX thread for an event loop.
enum Thread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread named `name` (at most 15 characters are kept).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
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
}
