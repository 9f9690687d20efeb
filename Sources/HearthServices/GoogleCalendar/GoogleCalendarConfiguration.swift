import Net

/// The settings of Google Calendar connections (`--google-*`, README "Google Calendar"): the OAuth
/// client the operator registered at Google, the endpoints (Google's unless configured otherwise,
/// so tests run against a loopback stand-in), and the limits of syncing.
///
/// The endpoints are the operator's choice, not a user's, so they are reached wherever they point
/// (loopback included); user-supplied URLs never come here.
public struct GoogleCalendarConfiguration: Sendable {
    /// The OAuth client's id.
    public var clientID: String
    /// The OAuth client's secret.
    public var clientSecret: String
    /// Google's authorization endpoint, where the user's browser is sent.
    public var authorizationEndpoint: String
    /// Where codes and refresh tokens are exchanged for access tokens.
    public var tokenEndpoint: HTTPURL
    /// Where a token is revoked when the user disconnects.
    public var revocationEndpoint: HTTPURL
    /// The Calendar API's base URL (`https://www.googleapis.com/calendar/v3`), without a final `/`.
    public var calendarAPI: String
    /// The redirect URI registered with the client: `<public base URL>/oauth/google/callback` by default.
    public var redirectURI: String
    /// How long a begun connection may wait for its completion.
    public var authorizationLifetime: Duration
    /// The most connection attempts one user may have open; a new one beyond makes the oldest stop working.
    public var maximumOpenAttempts: Int
    /// How often each selected calendar is synced (and chores exported).
    public var syncInterval: Duration
    /// How soon after a chore changes its users' exports run (a burst of changes makes one export).
    public var exportDelay: Duration
    /// How long one request to Google may take.
    public var requestTimeout: Duration
    /// The most Google calendars one user may select.
    public var maximumCalendars: Int
    /// The most events one Google calendar may bring (a sync past it fails, recorded on the calendar).
    public var maximumEvents: Int
    /// The largest answer of Google read, in bytes.
    public var maximumResponseBytes: Int
    /// The longest wait a `Retry-After` imposes.
    public var maximumRetryAfter: Duration
    /// The TLS client; nil trusts the system's CA store.
    public var tls: TLSClient?

    /// The scopes asked for: reading calendars and events, writing events (the chore export).
    public static let scopes = ["https://www.googleapis.com/auth/calendar.readonly", "https://www.googleapis.com/auth/calendar.events"]
    /// Google's endpoints, the defaults.
    public static let googleAuthorizationEndpoint = "https://accounts.google.com/o/oauth2/v2/auth"
    public static let googleTokenEndpoint = "https://oauth2.googleapis.com/token"
    public static let googleRevocationEndpoint = "https://oauth2.googleapis.com/revoke"
    public static let googleCalendarAPI = "https://www.googleapis.com/calendar/v3"

    /// The settings of the client `clientID`, with the defaults of the README for the rest.
    public init(
        clientID: String, clientSecret: String, redirectURI: String, authorizationEndpoint: String = googleAuthorizationEndpoint,
        tokenEndpoint: HTTPURL, revocationEndpoint: HTTPURL, calendarAPI: String = googleCalendarAPI,
        authorizationLifetime: Duration = .seconds(600), maximumOpenAttempts: Int = 5, syncInterval: Duration = .seconds(900), exportDelay: Duration = .seconds(30), requestTimeout: Duration = .seconds(30),
        maximumCalendars: Int = 20, maximumEvents: Int = 5000, maximumResponseBytes: Int = 4 << 20, maximumRetryAfter: Duration = .seconds(3600),
        tls: TLSClient? = nil
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.calendarAPI = calendarAPI.hasSuffix("/") ? String(calendarAPI.dropLast()) : calendarAPI
        self.authorizationLifetime = authorizationLifetime
        self.maximumOpenAttempts = maximumOpenAttempts
        self.syncInterval = syncInterval
        self.exportDelay = exportDelay
        self.requestTimeout = requestTimeout
        self.maximumCalendars = maximumCalendars
        self.maximumEvents = maximumEvents
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumRetryAfter = maximumRetryAfter
        self.tls = tls
    }
}
