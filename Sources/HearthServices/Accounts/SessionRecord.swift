import FoundationEssentials
import HearthStore

/// A signed-in device as stored in `sessions` (without its token digests).
public struct SessionRecord: Sendable, Hashable, Decodable {
    /// The session's id (the access token's `sid`).
    public var id: String
    /// The account signed in.
    public var userId: String
    /// What the client called the device at sign-in, e.g. "Ana's iPhone".
    public var deviceLabel: String?
    /// How many times the refresh token was rotated, plus one: access tokens carry it.
    public var generation: Int64
    /// When the current refresh token stops working unless used.
    public var refreshExpiresAt: Date
    /// When the session was created (the sign-in).
    public var createdAt: Date
    /// When the session was last refreshed or signed in.
    public var lastUsedAt: Date
    /// The absolute end of the session.
    public var expiresAt: Date
    /// When it was revoked, if it was.
    public var revokedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case deviceLabel = "device_label"
        case generation
        case refreshExpiresAt = "refresh_expires_at"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case expiresAt = "expires_at"
        case revokedAt = "revoked_at"
    }

    /// The columns, in the order ``CodingKeys`` reads them.
    static let columns = "id, user_id, device_label, generation, refresh_expires_at, created_at, last_used_at, expires_at, revoked_at"

    /// Whether the session can authenticate at `now`.
    public func isActive(at now: Date) -> Bool {
        revokedAt == nil && now < expiresAt && now < refreshExpiresAt
    }
}
