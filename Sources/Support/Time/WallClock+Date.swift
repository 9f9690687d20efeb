import FoundationEssentials

extension WallClock.Instant {
    /// The instant of `date`, rounded to the millisecond (the precision Hearth stores and emits).
    public init(_ date: Date) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        self = remainder >= 0
            ? WallClock.Instant(seconds: seconds, nanoseconds: Int32(remainder) * 1_000_000)
            : WallClock.Instant(seconds: seconds - 1, nanoseconds: Int32(1000 + remainder) * 1_000_000)
    }
}
