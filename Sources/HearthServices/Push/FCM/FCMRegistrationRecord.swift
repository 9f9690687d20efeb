import FoundationEssentials

/// A row of `fcm_registrations` (migration 0035): a native app's FCM registration token.
public struct FCMRegistrationRecord: Sendable, Hashable, Decodable {
    /// The id (`psh_…`, shared with Web Push subscriptions).
    public var id: String
    /// The account the messages are for.
    public var userID: String
    /// The token the app got from the Firebase SDK.
    public var token: String
    /// When it was first registered.
    public var createdAt: Date
    /// When it was last registered again.
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, token
        case userID = "user_id", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The columns the readers select.
    static let columns = "id, user_id, token, created_at, updated_at"
}
