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

        /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, written into the string's own bytes (every DateTime a
        /// response shows is formatted here); a year outside 0...9999 as many digits as it has.
        public var iso8601: String {
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let year = Int(parts.tm_year) + 1900
            let longYear = (0...9999).contains(year) ? nil : String(year)
            let yearWidth = longYear?.utf8.count ?? 4
            return String(unsafeUninitializedCapacity: yearWidth + 20) { text in
                func put(_ value: Int, width: Int, at offset: Int, then separator: Unicode.Scalar) {
                    var rest = value
                    for index in stride(from: offset + width - 1, through: offset, by: -1) {
                        text[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                        rest /= 10
                    }
                    text[offset + width] = UInt8(ascii: separator)
                }
                if let longYear {
                    for (index, byte) in longYear.utf8.enumerated() { text[index] = byte }
                    text[yearWidth] = UInt8(ascii: "-")
                } else {
                    put(year, width: 4, at: 0, then: "-")
                }
                put(Int(parts.tm_mon) + 1, width: 2, at: yearWidth + 1, then: "-")
                put(Int(parts.tm_mday), width: 2, at: yearWidth + 4, then: "T")
                put(Int(parts.tm_hour), width: 2, at: yearWidth + 7, then: ":")
                put(Int(parts.tm_min), width: 2, at: yearWidth + 10, then: ":")
                put(Int(parts.tm_sec), width: 2, at: yearWidth + 13, then: ".")
                put(Int(nanoseconds / 1_000_000), width: 3, at: yearWidth + 16, then: "Z")
                return yearWidth + 20
            }
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
