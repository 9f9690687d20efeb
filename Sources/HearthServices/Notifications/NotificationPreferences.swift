import FoundationEssentials
import HearthDomain
import HearthStore

/// One user's notification preferences (`notification_preferences`, migrations 0031 and 0036):
/// which channels notices reach them on, their quiet hours in their time zone, and whether
/// reminders wait for free time in their calendars (FR-50A). A user without a row has the
/// defaults: the live stream and push, no quiet hours, busy time not avoided.
public struct NotificationPreferences: Sendable, Hashable {
    /// The channels notices are delivered on; the record in `notifications` is kept whatever they are.
    public var channels: Set<NotificationChannelKind>
    /// When reminders wait; `nil` for none.
    public var quietHours: QuietHours?
    /// The IANA zone quiet hours are read in; `nil`: the account's time zone, else UTC.
    public var timeZone: String?
    /// Whether a reminder that falls in a busy period of theirs waits for the next free time
    /// before the deadline, or is skipped without one (FR-50A, FR-50B); off by default.
    public var avoidsBusyTimes: Bool

    /// The defaults.
    public static let defaults = NotificationPreferences(channels: [.live, .push], quietHours: nil, timeZone: nil, avoidsBusyTimes: false)

    /// Preferences with these values.
    public init(channels: Set<NotificationChannelKind>, quietHours: QuietHours?, timeZone: String?, avoidsBusyTimes: Bool = false) {
        self.channels = channels
        self.quietHours = quietHours
        self.timeZone = timeZone
        self.avoidsBusyTimes = avoidsBusyTimes
    }

    /// The preferences of `scope`'s account (the defaults without a row).
    static func read(_ scope: OwnerScope) throws -> NotificationPreferences {
        guard let row = try scope.queryOne(
            "SELECT channels, quiet_start, quiet_end, time_zone, avoid_busy_times FROM notification_preferences WHERE user_id = {owner}")
        else { return defaults }
        let start: Int? = try row["quiet_start"], end: Int? = try row["quiet_end"]
        let channels = (try row["channels"] as String).split(separator: ",").compactMap { NotificationChannelKind(rawValue: String($0)) }
        return NotificationPreferences(
            channels: Set(channels), quietHours: start.flatMap { start in end.map { QuietHours(startMinute: start, endMinute: $0) } },
            timeZone: try row["time_zone"], avoidsBusyTimes: try row["avoid_busy_times"] as Int == 1)
    }

    /// Stores these preferences for `scope`'s account.
    func write(_ scope: OwnerScope, at now: Date) throws {
        let channels = NotificationChannelKind.allCases.filter(channels.contains).map(\.rawValue).joined(separator: ",")
        try scope.execute(
            """
            INSERT INTO notification_preferences (user_id, channels, quiet_start, quiet_end, time_zone, avoid_busy_times, updated_at)
            VALUES ({owner}, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET channels = excluded.channels, quiet_start = excluded.quiet_start,
                quiet_end = excluded.quiet_end, time_zone = excluded.time_zone, avoid_busy_times = excluded.avoid_busy_times,
                updated_at = excluded.updated_at
            """,
            [channels, quietHours?.startMinute, quietHours?.endMinute, timeZone, avoidsBusyTimes ? 1 : 0, now])
    }

    /// The zone quiet hours are read in: ``timeZone``, else the account's, else UTC.
    func zone(_ scope: OwnerScope) throws -> TimeZoneRules {
        let accountZone = try scope.database.scalar(String.self, "SELECT time_zone FROM users WHERE id = ?", [scope.key.userID])
        guard let name = timeZone ?? accountZone, let rules = TimeZoneRules.named(name) else { return .utc }
        return rules
    }
}
