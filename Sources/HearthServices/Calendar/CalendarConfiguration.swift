/// The operating limits of the calendar and availability events, read once at start
/// (`CalendarSettings` in HearthApp: a flag and an environment variable each).
public struct CalendarConfiguration: Sendable, Hashable {
    /// The most availability events one user may have (`--max-availability-events-per-user`,
    /// default 500, 1 to 100,000); one more is `CONFLICT` `LIMIT_REACHED`.
    public var maximumEventsPerUser: Int
    /// The most days one `calendar` query covers (`--max-calendar-days`, default 366, 1 to 3,660);
    /// a longer range is `BAD_USER_INPUT` `OUT_OF_RANGE` on `to`.
    public var maximumRangeDays: Int
    /// The most entries one `calendar` answer holds (`--max-calendar-entries`, default 5,000, 1 to
    /// 100,000); a range with more is `BAD_USER_INPUT` `TOO_LARGE` on `to` (ask for fewer days).
    public var maximumEntries: Int

    /// Creates a configuration; the defaults are the documented ones.
    public init(maximumEventsPerUser: Int = 500, maximumRangeDays: Int = 366, maximumEntries: Int = 5000) {
        precondition(maximumEventsPerUser > 0 && maximumRangeDays > 0 && maximumEntries > 0, "limits are positive")
        self.maximumEventsPerUser = maximumEventsPerUser
        self.maximumRangeDays = maximumRangeDays
        self.maximumEntries = maximumEntries
    }
}
