import GraphQL
import HearthDomain
import HearthHTTP
import HearthServices

/// The HTTP side of avatars: `GET /avatars/:id` serves them, `PUT /avatar` uploads one for
/// clients that do not speak GraphQL multipart requests.
///
/// - `GET` (and `HEAD`) `/avatars/<id>`: the image with its stored media type, `ETag` (its
///   SHA-256, quoted), `Cache-Control: public, max-age=31536000, immutable` (an id is never
///   reused: a new picture gets a new id), `X-Content-Type-Options: nosniff` and
///   `Content-Security-Policy: default-src 'none'` (should a file ever be opened as a
///   document). `If-None-Match` with the ETag (or `*`) answers 304; an unknown id 404.
/// - `PUT /avatar` with `Authorization: Bearer <accessToken>`, the image as the body and its
///   `Content-Type` (`image/png`, `image/jpeg`, `image/webp` or `application/octet-stream`; the
///   content decides the stored type): 200 with `{"avatarUrl": "<url>"}`.
///   Refusals carry a GraphQL-style `{"errors": [...]}` body with `extensions.code`: 401
///   (`UNAUTHENTICATED`, with `WWW-Authenticate: Bearer`), 415 for another `Content-Type` or a
///   file that is not a supported image (`UNSUPPORTED_FORMAT`), 413 for one too large
///   (`TOO_LARGE`), 400 for a damaged one (`INVALID_FORMAT`), 429 when rate limited.
///
/// An unexpected failure (the database) is thrown, not answered here: the router answers 500
/// and logs the error with the request id, the one place every route's 500 comes from.
public struct AvatarRoutes: Sendable {
    /// The service storing and reading avatars.
    public let accounts: AccountService
    /// Checks the bearer token of uploads, as `/graphql` does.
    public let authenticator: Authenticator

    /// `Cache-Control` of a served avatar: the bytes behind an id never change.
    public static let cacheControl = "public, max-age=31536000, immutable"
    /// The `Content-Type` values an upload may declare.
    public static let uploadMediaTypes: Set<String> = ["image/png", "image/jpeg", "image/webp", "application/octet-stream"]

    /// Creates the routes.
    public init(accounts: AccountService, authenticator: Authenticator) {
        self.accounts = accounts
        self.authenticator = authenticator
    }

    /// Registers `GET /avatars/:id` and `PUT /avatar`.
    public func register(in router: inout Router) {
        router.on(.get, "/avatars/:id") { [self] request in try await serve(request) }
        router.on(.put, "/avatar") { [self] request in try await upload(request) }
    }

    /// The response to `GET /avatars/<id>` (or `HEAD`).
    /// - Throws: what reading the avatar throws (the router answers 500 and logs it).
    public func serve(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameters["id"] ?? ""
        guard let avatar = try await accounts.avatar(id: id) else { return .text("no such avatar\n", status: .notFound) }
        return Self.image(avatar.bytes, mediaType: avatar.mediaType, sha256: avatar.sha256, cacheControl: Self.cacheControl, for: request)
    }

    /// A stored image as the answer to `request` (avatars, habit event photos): `ETag` (its
    /// SHA-256, quoted) and `cacheControl`, and 304 when `If-None-Match` names the ETag; otherwise
    /// the bytes with their media type, `X-Content-Type-Options: nosniff` and
    /// `Content-Security-Policy: default-src 'none'` (should the file ever be opened as a document).
    static func image(_ bytes: [UInt8], mediaType: String, sha256: String, cacheControl: String, for request: HTTPRequest) -> HTTPResponse {
        let etag = "\"\(sha256)\""
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
        if let ifNoneMatch = request.headers["If-None-Match"], matches(ifNoneMatch, etag: etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: mediaType)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'")
        return HTTPResponse(status: .ok, headers: headers, body: bytes)
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`.
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces()
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// The response to `PUT /avatar`.
    /// - Throws: an unexpected failure storing the image (the router answers 500 and logs it).
    public func upload(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refused): return refused.response
        }
        guard let declared = request.declaredMediaType, Self.uploadMediaTypes.contains(declared) else {
            return ServiceError(
                .badUserInput, "Send the image as image/png, image/jpeg or image/webp.",
                problems: [FieldProblem(field: "body", reason: .unsupportedFormat, message: "Send the image as image/png, image/jpeg or image/webp.")]
            ).httpRefusal
        }
        do {
            let user = try await accounts.setAvatar(viewer: viewer, bytes: request.body, field: "body")
            let result: JSON = ["avatarUrl": user.avatarId.map { .string(accounts.avatarURL(id: $0)) } ?? .null]
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: result.serialized())
        } catch let error as ServiceError {
            return error.httpRefusal
        }
    }
}
