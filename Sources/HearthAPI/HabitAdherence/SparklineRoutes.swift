import HearthHTTP
import HearthServices

/// `GET /habits/<id>/sparkline.svg`: a habit's last 12 weeks of adherence as an SVG image
/// (``HabitAdherenceService/sparkline(habitID:viewer:)``), for home-screen widgets (US 01.08).
///
/// - Authenticated as `/graphql` is, with `Authorization: Bearer <accessToken>`: without a valid
///   token 401 (`UNAUTHENTICATED` in a GraphQL-style `{"errors": [...]}` body, `WWW-Authenticate:
///   Bearer`). A habit the viewer may not see (another user's private habit, or one of a user they
///   do not follow) answers 404, as an unknown id does.
/// - `Content-Type: image/svg+xml`, `ETag` (the SHA-256 of the document), `Cache-Control: private,
///   no-cache` and `Vary: Authorization`: the image changes whenever an event is recorded or a day
///   passes, so a widget revalidates each time it polls and `If-None-Match` with the current tag
///   answers 304 without a body; only the viewer's own caches may keep it (it needs their token).
/// - `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'`: the
///   document has no scripts or references, and nothing opened from it could load any.
public struct SparklineRoutes: Sendable {
    /// The service computing the image.
    public let adherence: HabitAdherenceService
    /// Checks the bearer token, as `/graphql` does.
    public let authenticator: Authenticator

    /// `Cache-Control` of a sparkline: revalidate on every use (cheap with `If-None-Match`).
    public static let cacheControl = "private, no-cache"

    /// Creates the route.
    public init(adherence: HabitAdherenceService, authenticator: Authenticator) {
        self.adherence = adherence
        self.authenticator = authenticator
    }

    /// Registers `GET /habits/:id/sparkline.svg` (and `HEAD`).
    public func register(in router: inout Router) {
        router.on(.get, "/habits/:id/sparkline.svg") { [self] request in try await serve(request) }
    }

    /// The response to `GET /habits/<id>/sparkline.svg`.
    /// - Throws: an unexpected failure reading the habit (the router answers 500 and logs it).
    public func serve(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refusal): return refusal.response
        }
        guard let sparkline = try await adherence.sparkline(habitID: request.parameters["id"] ?? "", viewer: viewer) else {
            return .text("no such habit\n", status: .notFound)
        }
        var headers: HTTPHeaders = ["ETag": sparkline.etag, "Cache-Control": Self.cacheControl, "Vary": "Authorization"]
        if let ifNoneMatch = request.headers["If-None-Match"], AvatarRoutes.matches(ifNoneMatch, etag: sparkline.etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "image/svg+xml")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'")
        return HTTPResponse(status: .ok, headers: headers, body: Array(sparkline.svg.utf8))
    }
}
