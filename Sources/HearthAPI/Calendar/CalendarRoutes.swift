import HearthDomain
import HearthHTTP
import HearthServices
import Support

/// The HTTP side of calendar export (FR-60): RFC 5545 files for calendar apps.
///
/// - `GET /calendar/<token>.ics`: the private feed whose secret is `<token>`, without other
///   authentication (calendar apps subscribe to the URL); 404 for a token no feed has (never
///   made, replaced or revoked), the same answer whatever the reason.
/// - `GET /calendar.ics`: the signed-in user's file to download (`Authorization: Bearer`), with
///   every personal chore, household chore assigned to them and availability event; 401 signed out.
///
/// Both answer `text/calendar` with an `ETag` (SHA-256 of the file, quoted) and
/// `Cache-Control: private, no-cache`; `If-None-Match` with the ETag answers 304, so an app that
/// polls the feed downloads it only when something changed.
public struct CalendarRoutes: Sendable {
    /// The files.
    public let feeds: CalendarFeedService
    /// Checks the bearer token of the download, as `/graphql` does.
    public let authenticator: Authenticator

    /// Creates the routes.
    public init(feeds: CalendarFeedService, authenticator: Authenticator) {
        self.feeds = feeds
        self.authenticator = authenticator
    }

    /// Registers `GET /calendar/:token` and `GET /calendar.ics`.
    public func register(in router: inout Router) {
        router.on(.get, "/calendar/:token") { [self] request in try await feed(request) }
        router.on(.get, "/calendar.ics") { [self] request in try await download(request) }
    }

    /// The response to `GET /calendar/<token>.ics`.
    /// - Throws: an unexpected failure reading the calendar (the router answers 500 and logs it).
    public func feed(_ request: HTTPRequest) async throws -> HTTPResponse {
        let name = request.parameters["token"] ?? ""
        guard name.hasSuffix(".ics"), let document = try await feeds.document(token: String(name.dropLast(".ics".count))) else {
            return .text("no such calendar\n", status: .notFound)
        }
        return Self.file(document, for: request)
    }

    /// The response to `GET /calendar.ics`.
    /// - Throws: an unexpected failure reading the calendar (the router answers 500 and logs it).
    public func download(_ request: HTTPRequest) async throws -> HTTPResponse {
        switch await authenticator.viewer(of: request) {
        case .success(let viewer):
            var response = Self.file(try await feeds.document(viewer: viewer), for: request)
            response.headers.add(name: "Content-Disposition", value: "attachment; filename=\"hearth.ics\"")
            return response
        case .failure(let refusal): return refusal.response
        }
    }

    /// `document` as a calendar file with its ETag, or 304 when the request already has it.
    private static func file(_ document: String, for request: HTTPRequest) -> HTTPResponse {
        let bytes = Array(document.utf8)
        return AvatarRoutes.image(
            bytes, mediaType: ICalendarDocument.mediaType, sha256: SHA256.hexDigest(of: bytes), cacheControl: "private, no-cache", for: request)
    }
}
