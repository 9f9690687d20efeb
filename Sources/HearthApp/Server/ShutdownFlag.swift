import Dispatch
import Synchronization

/// Set once a graceful shutdown begins; read by `/readyz`, waited for by the test-only
/// `/_test/hold` endpoint.
final class ShutdownFlag: Sendable {
    private let value = Atomic<Bool>(false)
    /// Entered once at creation and left once by `set()`: waiting on it waits for the flag.
    private let pending = DispatchGroup()

    /// A flag not yet set.
    init() {
        pending.enter()
    }

    /// Marks the shutdown as begun; later calls change nothing.
    func set() {
        if !value.exchange(true, ordering: .acquiringAndReleasing) { pending.leave() }
    }

    /// Whether the shutdown has begun.
    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Blocks the calling thread until the shutdown has begun.
    func wait() {
        pending.wait()
    }
}
