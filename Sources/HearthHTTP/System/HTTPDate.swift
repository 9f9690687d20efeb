import Glibc

/// The IMF-fixdate for the `Date` header (RFC 9110 §5.6.7), formatted at most once per second per event loop.
struct HTTPDateCache {
    private var second: time_t = -1
    private(set) var bytes: [UInt8] = []

    /// Refreshes the cached date if the wall-clock second changed.
    mutating func refresh() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        bytes = HTTPDateCache.format(now)
    }

    static func format(_ seconds: time_t) -> [UInt8] {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text = "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
