import FoundationEssentials
import Support

extension HTTPResponse {
    /// How long the server asked to wait before the next request (`Retry-After`, RFC 9110
    /// §10.2.3), as of `now`: delay-seconds, or an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`)
    /// less `now`. Nil without the header or with a value in neither form; zero for a date past.
    public func retryAfter(at now: Date) -> Duration? {
        guard let value = header("Retry-After")?.trimmingCharacters(in: " \t"), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Int(value).map { .seconds($0) } ?? .seconds(Int.max / 1_000_000_000)
        }
        guard let date = Self.imfFixdate(value) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant an IMF-fixdate names (`Sun, 06 Nov 1994 08:49:37 GMT`), or nil for another form.
    static func imfFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        let days = CivilCalendar.dayNumber(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * CivilCalendar.secondsPerDay + time[0] * 3600 + time[1] * 60 + time[2]))
    }
}
