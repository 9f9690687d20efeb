import FoundationEssentials

/// The wall clock the scheduler reads due times against and waits on, injected so tests move
/// time instead of sleeping (their clock wakes sleepers when it is moved past their deadline).
public protocol SchedulingClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Returns once ``now`` has reached `deadline` (at once when it already has).
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

/// The system's real-time clock.
public struct SystemClock: SchedulingClock {
    /// The clock.
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let remaining = deadline.timeIntervalSince(now)
        guard remaining > 0 else { return }
        // Rounded up: waking a millisecond early would find the job not yet due.
        try await Task.sleep(for: .milliseconds(Int64((remaining * 1000).rounded(.up))))
    }
}
