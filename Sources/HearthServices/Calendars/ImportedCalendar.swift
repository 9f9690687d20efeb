import FoundationEssentials
import HearthDomain

/// A calendar a user imported from an .ics file or subscribed to as a feed URL (FR-61), as the API
/// shows it.
public struct ImportedCalendar: Codable, Sendable, Equatable {
    /// Its id (`icl_…`).
    public let id: String
    /// The name the user gave it, unique among their imported calendars regardless of case.
    public let name: String
    /// How many events (overrides of single occurrences included) the last import stored.
    public let eventCount: Int
    /// When it was first imported.
    public let createdAt: Date
    /// When a file was last imported into it (for a feed: when its events last changed).
    public let importedAt: Date
    /// For a feed, the https:// URL the server fetches; nil for an uploaded file.
    public let sourceURL: String?
    /// For a feed, when a refresh last succeeded (a 304 answer included); for a Google calendar, a sync.
    public let lastRefreshedAt: Date?
    /// For a feed, why the last refresh failed (for a Google calendar, the last sync); nil after a success.
    public let lastRefreshError: String?
    /// For a feed, whether its refreshes work (``CalendarFeedStatus``).
    public let feedStatus: CalendarFeedStatus
    /// For a feed that is not dead, when it is refreshed next.
    public let nextRefreshAt: Date?
    /// For a calendar synced from Google Calendar, Google's id of it; nil for a file or a feed.
    public let googleCalendarID: String?
    /// The events the last import or refresh left out, as JSON (``skippedEvents``).
    let skippedEventsJSON: String

    /// The events the last import or refresh left out, because they use what the recurrence
    /// engine does not expand.
    public var skippedEvents: [SkippedCalendarEvent] {
        (try? JSONDecoder().decode([SkippedCalendarEvent].self, from: Data(skippedEventsJSON.utf8))) ?? []
    }

    /// The columns that decode a calendar (as its property names).
    static let columns = """
        id, name, event_count AS eventCount, created_at AS createdAt, imported_at AS importedAt, source_url AS sourceURL,
        last_refreshed_at AS lastRefreshedAt, last_refresh_error AS lastRefreshError, feed_status AS feedStatus,
        next_refresh_at AS nextRefreshAt, google_calendar_id AS googleCalendarID, skipped_events AS skippedEventsJSON
        """
}

/// Whether a feed's refreshes work.
public enum CalendarFeedStatus: String, Codable, Sendable, Hashable {
    /// The last refresh succeeded (or the calendar is an uploaded file).
    case active
    /// The last refresh failed: the events of the last success are kept, and refreshes back off.
    case failing
    /// The feed is gone (410, or 404 too many times in a row): no more refreshes until the user
    /// refreshes it by hand.
    case dead
}

/// One occurrence of an imported event in a range, with the event and calendar it belongs to.
public struct ImportedOccurrence: Sendable, Equatable {
    /// The stored event's id (`iev_…`); the occurrences of one series share it, an override has its own.
    public let eventID: String
    /// The calendar's id.
    public let calendarID: String
    /// When, what and whether busy.
    public let occurrence: CalendarOccurrence
}

/// The payload of the `imported_calendar.*` changes (topic `user:<id>`).
struct ImportedCalendarChange: Codable, Sendable, ChangeSubjects {
    let calendarID: String
    let userID: String

    var touchedObjectIDs: [String] { [calendarID] }
}

extension EventKind {
    /// A file was imported into a calendar (new, or replacing its events), or a feed subscribed to.
    public static let importedCalendarImported: EventKind = "imported_calendar.imported"
    /// A feed was refreshed: its events, its status or its last error changed.
    public static let importedCalendarRefreshed: EventKind = "imported_calendar.refreshed"
    /// An imported calendar was deleted with its events (a tombstone remains).
    public static let importedCalendarDeleted: EventKind = "imported_calendar.deleted"
}
