import FoundationEssentials

/// The payload of a job that works on one imported calendar at one due time: a feed's refresh
/// (``CalendarFeedRefreshJob``) or a Google calendar's sync (``GoogleCalendarSyncJob``). The
/// calendar's owner is read from its row when the job is scheduled; the due time tells the job
/// whether it is still the calendar's next one (a job due at another time is stale).
public struct ScheduledCalendarWork: Codable, Sendable, Hashable {
    /// The imported calendar's id.
    public var calendarID: String
    /// The account it belongs to.
    public var userID: String
    /// When the work was due.
    public var dueAt: Date
}
