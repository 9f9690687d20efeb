import FoundationEssentials

/// A user's quiet hours: a daily span of local time, in their time zone, when reminders wait
/// (until it ends, when that is still before the chore is due) instead of arriving. A span whose
/// start is after its end runs over midnight (22:00–07:00). Start and end are minutes of the day.
public struct QuietHours: Sendable, Hashable {
    /// The first quiet minute of the day, 0–1439.
    public var startMinute: Int
    /// The first minute that is no longer quiet, 0–1439; equal to the start means no quiet time.
    public var endMinute: Int

    /// Quiet hours from `startMinute` up to `endMinute` (minutes of the day).
    public init(startMinute: Int, endMinute: Int) {
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// When the quiet span containing `date` ends, in `zone`; `nil` when `date` is not quiet.
    public func end(ofSpanContaining date: Date, in zone: TimeZoneRules) -> Date? {
        guard startMinute != endMinute else { return nil }
        let offset = zone.secondsFromUTC(at: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let secondOfDay = ((local % 86_400) + 86_400) % 86_400
        let minute = secondOfDay / 60
        let quiet = startMinute < endMinute
            ? (startMinute..<endMinute).contains(minute)
            : minute >= startMinute || minute < endMinute
        guard quiet else { return nil }
        var localEnd = local - secondOfDay + endMinute * 60
        if localEnd <= local { localEnd += 86_400 }
        // The offset at the end itself (a daylight-saving change may lie between).
        let guess = Date(timeIntervalSince1970: TimeInterval(localEnd - offset))
        return Date(timeIntervalSince1970: TimeInterval(localEnd - zone.secondsFromUTC(at: guess)))
    }

    /// `HH:MM` of a minute of the day.
    public static func localTime(_ minute: Int) -> String {
        let hours = minute / 60, minutes = minute % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// The minute of the day of `HH:MM` (00:00–23:59); `nil` for other text.
    public static func minute(localTime text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }
}
