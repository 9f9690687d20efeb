import HearthHTTP
import HearthServices

/// The HTTP side of following: the map of the following feed (US 06.03) as GeoJSON, for map
/// widgets that load a URL.
///
/// `GET /following/feed.geojson?since=<DateTime>` (`since` optional, as `followingFeedGeoJSON`'s)
/// with `Authorization: Bearer <accessToken>` answers the located events of the people the viewer
/// follows as `application/geo+json` (``HabitGeoJSON``), `Cache-Control: private, no-store` (an
/// unfollow must show at the next load). Refusals are `{"errors": [...]}` with `extensions.code`:
/// 401 signed out, 400 for a malformed query string or `since`, or one further back than the feed
/// may reach.
public struct FollowingRoutes: Sendable {
    /// The service reading the feed.
    public let follows: FollowService
    /// Checks the bearer token, as `/graphql` does.
    public let authenticator: Authenticator

    /// Creates the routes.
    public init(follows: FollowService, authenticator: Authenticator) {
        self.follows = follows
        self.authenticator = authenticator
    }

    /// Registers `GET /following/feed.geojson`.
    public func register(in router: inout Router) {
        router.on(.get, "/following/feed.geojson") { [self] request in try await feedGeoJSON(request) }
    }

    /// The response to `GET /following/feed.geojson`.
    /// - Throws: an unexpected failure reading the feed (the router answers 500 and logs it).
    public func feedGeoJSON(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refusal): return refusal.response
        }
        do {
            guard let parameters = try? FormDecoding.parameters(request.query ?? "") else {
                throw ServiceError(.badUserInput, "The query string is not valid form encoding.")
            }
            let document = try await follows.feedGeoJSON(viewer: viewer, since: try FollowResolvers.since(parameters["since"]))
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": HabitGeoJSON.mediaType, "Cache-Control": "private, no-store"], body: Array(document.utf8))
        } catch let error as ServiceError {
            return error.httpRefusal
        }
    }
}
