#if canImport(Glibc)
import Glibc
#endif

/// Reads the real-time clock and formats instants as RFC 3339 UTC text without
/// Foundation's formatters (which are slow and not meant for a per-request path).
public enum WallClock {
    /// A point in UTC time with nanosecond precision.
    public struct Instant: Sendable, Hashable, Comparable {
        /// Seconds since 1970-01-01T00:00:00Z.
        public var seconds: Int64
        /// Nanoseconds within the second, 0..<1_000_000_000.
        public var nanoseconds: Int32

        /// Creates an instant from its parts.
        public init(seconds: Int64, nanoseconds: Int32 = 0) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }

        /// Milliseconds since the Unix epoch.
        public var millisecondsSinceEpoch: Int64 { seconds * 1000 + Int64(nanoseconds / 1_000_000) }

        /// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
        public var iso8601: String {
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            var text = ""
            text.reserveCapacity(24)
            func append(_ value: Int32, width: Int) {
                let digits = String(value)
                text += String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            append(parts.tm_year + 1900, width: 4)
            text += "-"
            append(parts.tm_mon + 1, width: 2)
            text += "-"
            append(parts.tm_mday, width: 2)
            text += "T"
            append(parts.tm_hour, width: 2)
            text += ":"
            append(parts.tm_min, width: 2)
            text += ":"
            append(parts.tm_sec, width: 2)
            text += "."
            append(nanoseconds / 1_000_000, width: 3)
            text += "Z"
            return text
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
        }
    }

    /// The current real time.
    public static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(seconds: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec))
    }
}
