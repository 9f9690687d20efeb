import FoundationEssentials
import Support

/// The one clock every service reads: wall time for what is stored and compared with stored
/// times (due times, expiries, the change log's stamps), monotonic seconds for rate limits, and
/// waiting until a time (the job scheduler). Injected everywhere, so tests move time by hand
/// (their clock wakes sleepers when it is moved past their deadline) instead of sleeping.
public protocol ServiceClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }

    /// Seconds on a clock that never goes back, for intervals (rate limits); unrelated to ``now``.
    var monotonicSeconds: Double { get }

    /// Returns once ``now`` has reached `deadline` (at once when it already has).
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

extension ServiceClock {
    /// The current time at the precision the store keeps (whole milliseconds), so a time written
    /// and read back compares equal to the one the caller kept (and published).
    public var storedNow: Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

/// The system's real-time and monotonic clocks.
public struct SystemClock: ServiceClock {
    /// The clock.
    public init() {}

    public var now: Date { Date() }

    public var monotonicSeconds: Double { Double(MonotonicClock.nanoseconds()) / 1e9 }

    public func sleep(until deadline: Date) async throws {
        let remaining = deadline.timeIntervalSince(now)
        guard remaining > 0 else { return }
        // Rounded up: waking a millisecond early would find the job not yet due.
        try await Task.sleep(for: .milliseconds(Int64((remaining * 1000).rounded(.up))))
    }
}
