/// How long to wait before each attempt to reconnect a lost connection: `initial` after the
/// first failure, doubling after each further one up to `maximum`, and `initial` again once a
/// connection succeeded. A state machine with no clock: its owner waits.
public struct ReconnectBackoff: Sendable, Equatable {
    /// The wait after the first failure.
    public let initial: Duration
    /// The longest wait.
    public let maximum: Duration
    private var next: Duration

    /// A backoff starting at `initial` and never waiting longer than `maximum`.
    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(10)) {
        precondition(initial > .zero && maximum >= initial, "a backoff waits a positive time, at most its maximum")
        self.initial = initial
        self.maximum = maximum
        self.next = initial
    }

    /// The wait before the next attempt, after a failure.
    public mutating func failed() -> Duration {
        let wait = next
        next = min(next * 2, maximum)
        return wait
    }

    /// A connection succeeded: the next failure waits `initial` again.
    public mutating func succeeded() {
        next = initial
    }
}
