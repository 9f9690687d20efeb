import FoundationEssentials
import HearthServices
import Net

/// The options of Google Calendar connections (``GoogleCalendarConfiguration``, README "Google
/// Calendar"). Without `--google-client-id` the feature is off and answers `UNAVAILABLE`. The TLS
/// client (`--outbound-ca-file`) is set at start, as for FCM.
enum GoogleCalendarSettings {
    /// The options that set ``GoogleCalendarConfiguration``.
    static let options: [OptionSpec] = [
        .value("--google-client-id", "ID", environment: "HEARTH_GOOGLE_CLIENT_ID",
               help: "The OAuth 2.0 client id (a \"Web application\" client of your Google Cloud project) users connect Google Calendar with. Unset: no Google Calendar."),
        .value("--google-client-secret", "SECRET", environment: "HEARTH_GOOGLE_CLIENT_SECRET",
               help: "The OAuth client's secret. Prefer --google-client-secret-file, which keeps it out of the process list."),
        .value("--google-client-secret-file", "PATH", environment: "HEARTH_GOOGLE_CLIENT_SECRET_FILE",
               help: "A file holding the OAuth client's secret (surrounding whitespace ignored)."),
        .value("--google-redirect-uri", "URL", environment: "HEARTH_GOOGLE_REDIRECT_URI", default: nil,
               help: "The redirect URI registered with the client. Default: <--public-base-url>/oauth/google/callback, the page that completes connections."),
        .value("--google-authorization-endpoint", "URL", environment: "HEARTH_GOOGLE_AUTHORIZATION_ENDPOINT",
               default: GoogleCalendarConfiguration.googleAuthorizationEndpoint, help: "Google's OAuth 2.0 authorization endpoint, where browsers are sent."),
        .value("--google-token-endpoint", "URL", environment: "HEARTH_GOOGLE_TOKEN_ENDPOINT", default: GoogleCalendarConfiguration.googleTokenEndpoint,
               help: "Where codes and refresh tokens are exchanged for access tokens."),
        .value("--google-revocation-endpoint", "URL", environment: "HEARTH_GOOGLE_REVOCATION_ENDPOINT",
               default: GoogleCalendarConfiguration.googleRevocationEndpoint, help: "Where a disconnected account's token is revoked."),
        .value("--google-calendar-api", "URL", environment: "HEARTH_GOOGLE_CALENDAR_API", default: GoogleCalendarConfiguration.googleCalendarAPI,
               help: "The base URL of Google Calendar's API v3."),
        .value("--google-authorization-lifetime", "DURATION", environment: "HEARTH_GOOGLE_AUTHORIZATION_LIFETIME", default: "10m",
               help: "How long a begun connection waits for Google to send the user back: 1 m to 1 h."),
        .value("--google-max-open-attempts", "N", environment: "HEARTH_GOOGLE_MAX_OPEN_ATTEMPTS", default: "5",
               help: "The most connections one user may have begun and not completed; one more ends the oldest: 1 to 100."),
        .value("--google-sync-interval", "DURATION", environment: "HEARTH_GOOGLE_SYNC_INTERVAL", default: "15m",
               help: "How often each selected Google calendar is synced (incrementally, with sync tokens) and chores exported: 1 m to 1 d."),
        .value("--google-export-delay", "DURATION", environment: "HEARTH_GOOGLE_EXPORT_DELAY", default: "30s",
               help: "How soon after a chore changes it is exported to its users' Google calendars (a burst of changes makes one export): 1 s to 1 h."),
        .value("--google-timeout", "DURATION", environment: "HEARTH_GOOGLE_TIMEOUT", default: "30s",
               help: "How long one request to Google may take: 1 s to 5 m."),
        .value("--google-max-calendars", "N", environment: "HEARTH_GOOGLE_MAX_CALENDARS", default: "20",
               help: "The most Google calendars one user may select for syncing: 1 to 100."),
        .value("--google-max-events", "N", environment: "HEARTH_GOOGLE_MAX_EVENTS", default: "5000",
               help: "The most events one Google calendar may bring; a bigger one is not synced (the error is on the calendar): 1 to 100,000."),
        .value("--google-max-response-bytes", "BYTES", environment: "HEARTH_GOOGLE_MAX_RESPONSE_BYTES", default: "4MiB",
               help: "The largest answer of Google read (one page of events): 64 KiB to 64 MiB."),
    ]

    /// The configuration the options give, nil without `--google-client-id`.
    /// - Parameters:
    ///   - publicBaseURL: Where the default redirect URI is.
    ///   - maximumRetryAfter: The longest wait a `Retry-After` imposes (`--push-max-retry-after`).
    /// - Throws: `UsageError` for a value out of range, an endpoint that is no http(s) URL (the operator's
    ///   choice: http serves a local stand-in), a client
    ///   id without a secret, or a secret file that cannot be read.
    static func configuration(_ options: ParsedOptions, publicBaseURL: PublicBaseURL, maximumRetryAfter: Duration) throws -> GoogleCalendarConfiguration? {
        guard let clientID = options.string("--google-client-id"), !clientID.isEmpty else { return nil }
        let secret: String
        if let path = options.string("--google-client-secret-file"), !path.isEmpty {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw UsageError(message: "--google-client-secret-file: cannot read '\(path)'")
            }
            secret = String(decoding: contents, as: UTF8.self).trimmingWhitespace()
        } else {
            secret = options.string("--google-client-secret") ?? ""
        }
        guard !secret.isEmpty else {
            throw UsageError(message: "--google-client-id needs the client's secret: --google-client-secret-file or --google-client-secret")
        }
        func endpoint(_ option: String, _ fallback: String) throws -> HTTPURL {
            let text = options.string(option) ?? fallback
            guard let url = try? HTTPURL(text) else { throw UsageError(message: "\(option) must be an https:// (or, for a local stand-in, http://) URL, not '\(text)'") }
            return url
        }
        let authorization = try endpoint("--google-authorization-endpoint", GoogleCalendarConfiguration.googleAuthorizationEndpoint)
        let api = try endpoint("--google-calendar-api", GoogleCalendarConfiguration.googleCalendarAPI)
        return GoogleCalendarConfiguration(
            clientID: clientID, clientSecret: secret,
            redirectURI: options.string("--google-redirect-uri") ?? publicBaseURL.url(for: "/oauth/google/callback"),
            authorizationEndpoint: authorization.description,
            tokenEndpoint: try endpoint("--google-token-endpoint", GoogleCalendarConfiguration.googleTokenEndpoint),
            revocationEndpoint: try endpoint("--google-revocation-endpoint", GoogleCalendarConfiguration.googleRevocationEndpoint),
            calendarAPI: api.description,
            authorizationLifetime: try options.duration("--google-authorization-lifetime", in: .seconds(60) ... .seconds(3600)) ?? .seconds(600),
            maximumOpenAttempts: try options.integer("--google-max-open-attempts", in: 1...100) ?? 5,
            syncInterval: try options.duration("--google-sync-interval", in: .seconds(60) ... .seconds(86_400)) ?? .seconds(900),
            exportDelay: try options.duration("--google-export-delay", in: .seconds(1) ... .seconds(3600)) ?? .seconds(30),
            requestTimeout: try options.duration("--google-timeout", in: .seconds(1) ... .seconds(300)) ?? .seconds(30),
            maximumCalendars: try options.integer("--google-max-calendars", in: 1...100) ?? 20,
            maximumEvents: try options.integer("--google-max-events", in: 1...100_000) ?? 5000,
            maximumResponseBytes: try options.byteCount("--google-max-response-bytes", in: (64 << 10)...(64 << 20)) ?? (4 << 20),
            maximumRetryAfter: maximumRetryAfter)
    }
}
