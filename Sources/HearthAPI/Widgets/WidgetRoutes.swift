import GraphQL
import HearthDomain
import HearthHTTP
import HearthServices

/// The HTTP side of home-screen widgets (FR-65, FR-66).
///
/// - `GET /widget/feed` (`Authorization: Bearer` with a widget token or an access token): the
///   feed as JSON (``WidgetFeedDocument``) with a strong `ETag` and `Cache-Control: private,
///   no-cache`; `If-None-Match` naming it answers 304 with no body, so polling costs one read and
///   a few bytes. 401 without a live credential (a revoked widget token at once). Both routes
///   answer 403 `TERMS_ACCEPTANCE_REQUIRED` while the account has not accepted the current terms,
///   as `widgetFeed` and `completeChore` are gated.
/// - `POST /widget/actions/<token>` (the same credentials): carries out a one-tap action link
///   (``WidgetService/perform(_:viewer:)``). POST, never GET: link prefetchers and previews must
///   not complete chores. The answer is JSON `{"status": …, "instanceId": …}`: 200 `COMPLETED`,
///   `PENDING_APPROVAL` or `STEP_COMPLETED`; 409 `ALREADY_DONE` (used before, or done by
///   someone); 410 `EXPIRED`; 403 `FORBIDDEN` (not this server's link, or another account's);
///   401 without a credential; `completeChore`'s refusals with their code (403 `FORBIDDEN`
///   when the user may not complete it, 404 `NOT_FOUND`, 409 `CONFLICT`).
/// - `GET /chore/<chore id>`: the https fallback of the deep link `hearth://chore/<id>`, a page
///   that opens the app (it shows nothing of the chore, and needs no credential).
public struct WidgetRoutes: Sendable {
    /// The feeds, kept between polls (and through it the tokens and the actions).
    public let feeds: WidgetFeedCache
    /// Checks access tokens, as `/graphql` does.
    public let authenticator: Authenticator

    /// Creates the routes.
    public init(feeds: WidgetFeedCache, authenticator: Authenticator) {
        self.feeds = feeds
        self.authenticator = authenticator
    }

    private var widgets: WidgetService { feeds.widgets }

    /// Registers the routes.
    public func register(in router: inout Router) {
        router.on(.get, "/widget/feed") { [self] request in try await feed(request) }
        router.on(.post, "/widget/actions/:token") { [self] request in try await action(request) }
        router.on(.get, "/chore/:id") { request in Self.choreLink(request) }
    }

    /// The response to `GET /widget/feed`.
    /// - Throws: an unexpected failure reading the feed (the router answers 500 and logs it).
    public func feed(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await self.viewer(of: request) {
        case .success(let found): viewer = found
        case .failure(let refused): return refused.response
        }
        let document = try await feeds.document(viewer: viewer)
        var headers: HTTPHeaders = ["ETag": document.etag, "Cache-Control": "private, no-cache"]
        if let ifNoneMatch = request.headers["If-None-Match"], AvatarRoutes.matches(ifNoneMatch, etag: document.etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        return HTTPResponse(status: .ok, headers: headers, body: document.body)
    }

    /// The response to `POST /widget/actions/<token>`.
    /// - Throws: an unexpected failure (the router answers 500 and logs it).
    public func action(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await self.viewer(of: request) {
        case .success(let found): viewer = found
        case .failure(let refused): return refused.response
        }
        do {
            let (outcome, instanceID) = try await widgets.perform(request.parameters["token"] ?? "", viewer: viewer)
            let status: HTTPStatus = switch outcome {
            case .completed, .pendingApproval, .stepCompleted: .ok
            case .alreadyDone: HTTPStatus(code: 409)
            case .expired: HTTPStatus(code: 410)
            case .forbidden: .forbidden
            }
            return Self.json(["status": .string(outcome.rawValue), "instanceId": instanceID.map(JSON.string) ?? .null], status: status)
        } catch let error as ServiceError {
            let status: HTTPStatus = switch error.code {
            case .forbidden: .forbidden
            case .notFound: .notFound
            case .conflict: HTTPStatus(code: 409)
            default: error.httpRefusal.status
            }
            return Self.json(
                ["status": .string(error.code.rawValue), "reason": error.reason.map { JSON.string($0.rawValue) } ?? .null, "message": .string(error.message)],
                status: status)
        }
    }

    /// The viewer of a widget request, a widget token's or an access token's, once they passed the
    /// terms gate as `widgetFeed` and `completeChore` do: 403 `TERMS_ACCEPTANCE_REQUIRED` until they
    /// accept the current terms in the app.
    private func viewer(of request: HTTPRequest) async -> Result<Viewer, RefusedRequest> {
        let credential = await self.credential(of: request)
        guard case .success(let viewer) = credential else { return credential }
        let households = widgets.instances.chores.households
        do {
            try households.requireAcceptedTerms(await households.accounts.user(id: viewer.userID))
            return .success(viewer)
        } catch let error as ServiceError {
            return .failure(RefusedRequest(response: error.httpRefusal))
        } catch {
            return .failure(RefusedRequest(response: ServiceError(.unavailable, "Your account could not be read; retry.").httpRefusal))
        }
    }

    /// Who a widget request's credential stands for: a widget token's viewer, or an access token's.
    private func credential(of request: HTTPRequest) async -> Result<Viewer, RefusedRequest> {
        if let token = request.headers["Authorization"].flatMap(HTTPHeaders.bearerToken(in:)), token.hasPrefix(WidgetService.tokenPrefix) {
            do {
                if let viewer = try await widgets.viewer(widgetToken: token) { return .success(viewer) }
            } catch {
                return .failure(RefusedRequest(response: ServiceError(.unavailable, "The widget token could not be checked; retry.").httpRefusal))
            }
            return .failure(RefusedRequest(response: ServiceError(
                .unauthenticated, reason: .tokenInvalid, "This widget token was revoked or never existed.").httpRefusal))
        }
        return await authenticator.viewer(of: request)
    }

    /// `object` as a JSON response with `status`.
    private static func json(_ object: JSON, status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"], body: object.serialized())
    }

    /// The response to `GET /chore/<id>`: a page linking to the app, 404 for what is no chore id.
    static func choreLink(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.parameters["id"] ?? ""
        guard GlobalID.mayName(.chore, id) else {
            return WebPage(status: .notFound, title: "No such chore", content: "<p>This link does not name a chore.</p>").response
        }
        let appURL = WidgetService.appURL(choreID: id)
        return WebPage(
            title: "Open in Hearth",
            content: """
                <p><a href="\(appURL)">Open this chore in the Hearth app</a>.</p>
                <p>Nothing happens? Install the Hearth app on this device, sign in to this server, and open the link again.</p>
                """
        ).response
    }
}
