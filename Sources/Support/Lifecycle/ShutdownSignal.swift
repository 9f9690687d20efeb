import CSystem

/// Routes SIGINT and SIGTERM to one waiting thread instead of asynchronous handlers.
///
/// Call ``blockInProcess()`` at the very start of `main`, before any thread exists,
/// so that every thread inherits the blocked mask (SIGPIPE is blocked too: a peer that
/// hangs up must give EPIPE, not kill the server). Then ``wait()`` on one thread
/// returns the first shutdown signal that arrives.
public enum ShutdownSignal {
    /// A shutdown signal that was received.
    public enum Kind: Sendable, CustomStringConvertible {
        case interrupt, terminate

        public var description: String {
            switch self {
            case .interrupt: "SIGINT"
            case .terminate: "SIGTERM"
            }
        }
    }

    /// Blocks SIGINT, SIGTERM and SIGPIPE for the calling thread and all threads it creates later.
    public static func blockInProcess() {
        _ = csystem_block_shutdown_signals()
    }

    /// Waits until SIGINT or SIGTERM arrives.
    public static func wait() -> Kind {
        while true {
            let number = csystem_wait_signal()
            if number == SIGINT { return .interrupt }
            if number == SIGTERM { return .terminate }
        }
    }
}
