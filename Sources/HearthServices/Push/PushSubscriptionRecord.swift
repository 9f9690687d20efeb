import FoundationEssentials

/// A row of `push_subscriptions` (migration 0032): a browser or UnifiedPush distributor a user
/// registered to receive pushes.
public struct PushSubscriptionRecord: Sendable, Hashable, Decodable {
    /// The id (`psh_…`).
    public var id: String
    /// The account the pushes are for.
    public var userID: String
    /// The push service's URL for this subscription (RFC 8030).
    public var endpoint: String
    /// The browser's P-256 public key, base64url (65 bytes).
    public var p256dh: String
    /// The browser's authentication secret, base64url (16 bytes).
    public var auth: String
    /// A name the user gave the device, if any.
    public var deviceName: String?
    /// When it was first registered.
    public var createdAt: Date
    /// When it was last registered again (new keys).
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, endpoint, p256dh, auth
        case userID = "user_id", deviceName = "device_name", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The columns of `push_subscriptions` the readers select.
    static let columns = "id, user_id, endpoint, p256dh, auth, device_name, created_at, updated_at"
}
