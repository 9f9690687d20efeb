import FoundationEssentials
/// The signed-in user making a request: who, through which session. Only
/// ``AccountService/authenticate(accessToken:)`` creates one, from a verified access token of
/// a live session, so holding a `Viewer` is proof of authentication.
public struct Viewer: Sendable, Hashable {
    /// The account.
    public let userID: String
    /// The session the access token belongs to.
    public let sessionID: String
    /// When that session signed in (a refresh does not change it): how recently the viewer
    /// proved who they are, for operations that need recent authentication.
    public let signedInAt: Date

    init(userID: String, sessionID: String, signedInAt: Date) {
        self.userID = userID
        self.sessionID = sessionID
        self.signedInAt = signedInAt
    }
}

/// The tokens handed to a client at sign-in or refresh.
public struct IssuedSession: Sendable {
    /// The session.
    public var session: SessionRecord
    /// The access token (a JWT) to send as `Authorization: Bearer`.
    public var accessToken: String
    /// When the access token stops working.
    public var accessTokenExpiresAt: Date
    /// The refresh token: shown once, stored only as a digest.
    public var refreshToken: String
}
