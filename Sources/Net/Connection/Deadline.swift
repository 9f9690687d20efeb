/// The instant by which a blocking network operation must be done. Every wait in `Net`
/// is bounded by one; a whole exchange (connect, send, receive) usually shares a single
/// deadline so its total time is bounded, not each step's.
public typealias Deadline = ContinuousClock.Instant

extension ContinuousClock.Instant {
    /// The deadline `duration` from now.
    public static func after(_ duration: Duration) -> Deadline {
        ContinuousClock.now + duration
    }

    /// Milliseconds left until this deadline for `poll(2)`, rounded up so a wait never ends
    /// just before it; nil when it has passed.
    var pollTimeout: Int32? {
        let remaining = ContinuousClock.now.duration(to: self)
        guard remaining > .zero else { return nil }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
