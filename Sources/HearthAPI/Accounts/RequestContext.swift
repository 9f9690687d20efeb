import HearthServices

/// Who is calling, as far as the credentials presented with a request (HTTP) or connection
/// (WebSocket `connection_init`) show.
public enum Authentication: Sendable {
    /// No credentials were presented.
    case signedOut
    /// A valid access token of a live session.
    case signedIn(Viewer)
    /// Credentials were presented and refused (expired, revoked, forged); fields that need a
    /// signed-in user report this error, so the client learns to refresh or sign in again.
    /// Fields callable without signing in still work.
    case refused(ServiceError)
}

/// The value every resolver receives as `context`: the caller's authentication and address.
///
/// A class, not a struct: resolvers find it with a cast from `any Sendable` (``of(_:)``), several
/// per request, and casting to a class costs a type check and one retain, where casting to a
/// struct of this size copied it out of its box field by field.
public final class RequestContext: Sendable {
    /// The caller's credentials, checked.
    public let authentication: Authentication
    /// The caller's IP address (without port), for rate limits: `HTTPRequest.clientAddress`, which
    /// a trusted reverse proxy's forwarding header decides.
    public let clientAddress: String
    /// The files of a multipart request by part name, what `Upload` values refer to.
    public let uploads: [String: UploadedFile]
    /// The HTTP request's id, which masked errors name; `syncBatch` names each entry's errors after
    /// it (`<id>-<index>`).
    public let requestID: String

    /// Creates a context.
    public init(authentication: Authentication, clientAddress: String, uploads: [String: UploadedFile] = [:], requestID: String = "") {
        self.authentication = authentication
        self.clientAddress = clientAddress
        self.uploads = uploads
        self.requestID = requestID
    }

    /// The signed-in user.
    /// - Throws: ``ServiceError`` `UNAUTHENTICATED` (the refusal's own reason when credentials
    ///   were refused).
    public func viewer() throws(ServiceError) -> Viewer {
        switch authentication {
        case .signedIn(let viewer): viewer
        case .signedOut: throw ServiceError.signedOut
        case .refused(let error): throw error
        }
    }

    /// The signed-in user, if any (a refused token counts as signed out).
    public var optionalViewer: Viewer? {
        if case .signedIn(let viewer) = authentication { viewer } else { nil }
    }
}

extension RequestContext {
    /// The context of resolvers given anything else (tests with a bare context): signed out.
    static func of(_ context: any Sendable) -> RequestContext {
        (context as? RequestContext) ?? RequestContext(authentication: .signedOut, clientAddress: "")
    }
}
