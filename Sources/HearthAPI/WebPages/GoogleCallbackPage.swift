import HearthHTTP
import HearthServices
import Support

/// The page Google sends the browser back to after the user answered its consent screen
/// (`GET /oauth/google/callback?code=…&state=…`, the default redirect URI): it completes the
/// connection server-side, exactly as `completeGoogleCalendarConnection` does, and says how it went.
///
/// `error=access_denied` (the user declined) and any other `error` store nothing and say so; an
/// unknown, used or expired state, or a code Google refuses, gets the service's message. The state
/// is the credential: the request carries no other. Like every page, it carries no script and
/// strict headers (``WebPage``).
public struct GoogleCallbackPage: Sendable {
    /// The path of the page, under the public base URL.
    public static let path = "/oauth/google/callback"

    private let google: GoogleCalendarService
    private let logger: Logger

    /// The page completing `google`'s connections, logging failures on `logger`.
    public init(google: GoogleCalendarService, logger: Logger) {
        self.google = google
        self.logger = logger
    }

    /// Registers `GET /oauth/google/callback`.
    public func register(in router: inout Router) {
        router.on(.get, Self.path) { [self] request in await response(to: request) }
    }

    /// The page for `request`.
    func response(to request: HTTPRequest) async -> HTTPResponse {
        let parameters = (try? FormDecoding.parameters(request.query ?? "")) ?? [:]
        if let error = parameters["error"] {
            let why: HTML = error == "access_denied"
                ? "<p>You did not allow Hearth to read your Google calendars, so nothing was connected.</p>"
                : "<p>Google answered \(String(error.prefix(100))), so nothing was connected.</p>"
            return WebPage(status: .badRequest, title: "Google Calendar was not connected", content: "\(why)<p>You can close this page and try again from the app.</p>").response
        }
        guard let code = parameters["code"], let state = parameters["state"] else {
            return WebPage(status: .badRequest, title: "Google Calendar was not connected", content: "<p>This page needs the code and state Google sends back.</p>").response
        }
        do {
            try await google.completeConnection(code: code, state: state, for: nil)
            return WebPage(
                title: "Google Calendar connected",
                content: "<p>Hearth can now read your Google calendars. Return to the app to choose which ones to show beside your chores.</p>"
            ).response
        } catch let error as ServiceError {
            return WebPage(status: PageContext.status(of: error), title: "Google Calendar was not connected", content: "<p>\(error.message)</p>").response
        } catch {
            logger.error("Google Calendar callback failed", ["request.id": request.id, "error": "\(error)"])
            return WebPage(
                status: .internalServerError, title: "Something went wrong",
                content: "<p>Something went wrong on our side. Try again in a moment.</p><p class=\"hint\">Reference: \(request.id)</p>").response
        }
    }
}
