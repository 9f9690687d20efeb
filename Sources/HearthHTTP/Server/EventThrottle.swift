/// Reports a recurring occurrence (a refused connection, running out of descriptors) at most
/// once per interval, with the number of occurrences held back since the previous report, so a
/// flood produces a few log lines instead of one per occurrence.
///
/// A state machine on an injected monotonic clock (nanoseconds), tested without waiting: the
/// first occurrence is reported at once and opens a quiet period of `interval`; occurrences
/// inside it are only counted; the first one after it is reported with that count, and so is
/// the end of a quiet period that held something back (``flush(now:)``, called on a timer).
struct EventThrottle: Sendable {
    /// The shortest time between two reports, in nanoseconds.
    let interval: UInt64
    private var quietUntil: UInt64?
    private var held = 0

    /// A throttle that reports at most once per `interval` nanoseconds.
    init(interval: UInt64) {
        self.interval = interval
    }

    /// Records one occurrence at `now`.
    /// - Returns: the number of occurrences held back before this one when it is to be
    ///   reported, nil when it is held back itself.
    mutating func record(now: UInt64) -> Int? {
        if let quietUntil, now < quietUntil {
            held += 1
            return nil
        }
        defer { held = 0 }
        quietUntil = now &+ interval
        return held
    }

    /// Ends a quiet period that is over and held occurrences back.
    /// - Returns: the number held back, to be reported now; nil when there is nothing to report.
    mutating func flush(now: UInt64) -> Int? {
        guard held > 0, let quietUntil, now >= quietUntil else { return nil }
        defer { held = 0 }
        self.quietUntil = now &+ interval
        return held
    }
}
