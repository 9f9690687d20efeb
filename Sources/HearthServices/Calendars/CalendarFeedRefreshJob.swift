import FoundationEssentials
import HearthStore
import Support

extension JobKind {
    /// Refreshes one calendar feed (``CalendarFeedRefreshJob``).
    public static let calendarFeedRefresh: JobKind = "calendar.feed_refresh"
}

/// Refreshes calendar feeds, one job per feed and due time (dedupe key `<calendar>@<due ms>`),
/// each scheduling the next (``ImportedCalendarService`` `+Feeds`).
///
/// Idempotent: a job runs only while the feed's `next_refresh_at` is its due time, and recording
/// its outcome moves that on in the same transaction, so a job that runs again after a crash finds
/// itself stale and does nothing (a crash between the fetch and the record fetches again, which a
/// conditional request makes cheap). Failures of the feed are recorded on the calendar and never
/// fail the job; only the database failing does, and the scheduler retries that.
public struct CalendarFeedRefreshJob: JobHandler {
    /// The job's input: the calendar, its owner and the due time.
    public typealias Payload = ScheduledCalendarWork

    let calendars: ImportedCalendarService
    let logger: Logger

    public var kind: JobKind { .calendarFeedRefresh }

    /// Refreshes the feed if the job is still its next refresh, and logs what happened
    /// (`feed.outcome`: `not_modified`, `updated`, `failed`, `dead`; a refresh deferred for its host's turn at debug level; the calendar's id, never its URL).
    public func run(_ job: Job) throws {
        let input = try job.decodePayload(Payload.self)
        let outcome = try calendars.refresh(input.calendarID, of: Owner(scheduledWorkOf: input.userID), scheduledFor: input.dueAt)
        guard outcome != .stale else { return }
        guard outcome != .deferred else {
            logger.debug("calendar feed refresh waits for its host's turn", ["feed.calendar": input.calendarID])
            return
        }
        let fields = ["feed.calendar": input.calendarID, "feed.outcome": outcome.rawValue]
        if outcome == .failed || outcome == .dead { logger.notice("calendar feed refresh failed", fields) } else { logger.info("calendar feed refreshed", fields) }
    }
}
