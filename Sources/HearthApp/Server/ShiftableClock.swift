import FoundationEssentials
import HearthServices
import Synchronization

/// The system clock moved forward by an offset the test endpoints set (``TestClockRoutes``, only
/// with `--test-endpoints`): how an end-to-end test puts the server at 23:59 on a month's last day
/// in a household's time zone without waiting for it. It only ever moves forward.
///
/// A task already sleeping is not woken by a move; the time it sees when it wakes, and everything
/// read meanwhile, is the moved one. The job scheduler is woken by the route that moves the clock
/// (``TestClockRoutes``).
final class ShiftableClock: ServiceClock {
    private let system = SystemClock()
    private let offset = Mutex<Double>(0)

    /// A clock reading the system's time until it is moved.
    init() {}

    var now: Date { system.now.addingTimeInterval(offset.withLock { $0 }) }

    var monotonicSeconds: Double { system.monotonicSeconds + offset.withLock { $0 } }

    func sleep(until deadline: Date) async throws {
        let remaining = deadline.timeIntervalSince(now)
        guard remaining > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((remaining * 1000).rounded(.up))))
    }

    /// Moves the clock forward so that it reads `instant` (or later, when it already does); returns
    /// the time it reads then.
    func advance(to instant: Date) -> Date {
        offset.withLock { offset in offset = max(offset, instant.timeIntervalSince(system.now)) }
        return now
    }
}
