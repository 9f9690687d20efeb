import FoundationEssentials
import HearthDomain

/// A user's connection to their Google Calendar account (FR-62), as the API shows it: never its tokens.
public struct GoogleConnection: Codable, Sendable, Equatable {
    /// Its id (`gco_…`).
    public let id: String
    /// Whether it works.
    public let status: GoogleConnectionStatus
    /// When it was first made.
    public let createdAt: Date
    /// When it was last connected again or changed.
    public let updatedAt: Date
    /// Why Google last refused it; nil while it works.
    public let lastError: String?
    /// The Google calendar chores are exported to; nil when they are not.
    public let exportCalendarID: String?
    /// Whether the household chores assigned to the user are exported too.
    public let exportsHouseholdChores: Bool

    /// The columns that decode a connection.
    static let columns = """
        id, status, created_at AS createdAt, updated_at AS updatedAt, last_error AS lastError, export_calendar_id AS exportCalendarID,
        export_household_chores AS exportsHouseholdChores
        """
}

/// Whether a Google Calendar connection works.
public enum GoogleConnectionStatus: String, Codable, Sendable, Hashable {
    /// Syncs and exports run.
    case active
    /// Google refused the refresh token (`invalid_grant`: revoked by the user, expired, or the
    /// client's secret changed): nothing runs until the user connects again.
    case revoked
}

/// A calendar of the user's Google account (`users/me/calendarList`), and whether it is synced.
public struct GoogleCalendarListEntry: Sendable, Equatable {
    /// Google's id of the calendar (the primary one's is the account's address).
    public let id: String
    /// Its title (the user's own name for it, when they gave one).
    public let summary: String
    /// Whether it is the account's primary calendar.
    public let isPrimary: Bool
    /// The user's role: `owner`, `writer`, `reader` or `freeBusyReader`.
    public let accessRole: String
    /// The imported calendar it is synced into, when selected.
    public let importedCalendar: ImportedCalendar?

    /// Whether it is selected for syncing.
    public var isSelected: Bool { importedCalendar != nil }
    /// Whether chores may be exported to it (the user may write events there).
    public var isWritable: Bool { accessRole == "owner" || accessRole == "writer" }
}

/// The start of a connection: where to send the user's browser, and until when it may come back.
public struct GoogleAuthorizationStart: Codable, Sendable, Equatable {
    /// Google's authorization URL with the client, scopes, state and PKCE challenge.
    public let authorizationURL: String
    /// When the state stops working.
    public let expiresAt: Date
}

/// The payload of the `google_calendar.*` changes (topic `user:<id>`).
struct GoogleConnectionChange: Codable, Sendable, ChangeSubjects {
    let connectionID: String
    let userID: String

    var touchedObjectIDs: [String] { [connectionID] }
}

extension EventKind {
    /// A user connected (or connected again) their Google Calendar account, or changed its export.
    public static let googleCalendarConnected: EventKind = "google_calendar.connected"
    /// Google refused a connection: the user must connect again.
    public static let googleCalendarRevoked: EventKind = "google_calendar.revoked"
    /// A user disconnected their Google Calendar account (its calendars and events went with it).
    public static let googleCalendarDisconnected: EventKind = "google_calendar.disconnected"
}
