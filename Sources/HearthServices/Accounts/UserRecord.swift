import FoundationEssentials
import HearthStore

/// An account as stored in `users`.
public struct UserRecord: Sendable, Hashable, Decodable {
    /// The account's id.
    public var id: String
    /// The username as chosen.
    public var username: String
    /// The current (confirmed or, before the first confirmation, registered) address.
    public var email: String
    /// When ``email`` was confirmed; `nil` until then.
    public var emailConfirmedAt: Date?
    /// The scrypt PHC string; `nil` for accounts that only sign in with Google or Apple.
    public var passwordHash: String?
    /// The name shown to others.
    public var displayName: String
    /// The current avatar's id.
    public var avatarId: String?
    /// When the account was created.
    public var createdAt: Date
    /// When the profile last changed.
    public var updatedAt: Date
    /// The terms-of-service version last accepted; `nil` when never.
    public var acceptedTermsVersion: String?
    /// When ``acceptedTermsVersion`` was accepted.
    public var termsAcceptedAt: Date?
    /// When the account allowed activation analytics; `nil` while it does not.
    public var analyticsConsentedAt: Date?
    /// The IANA time zone new households default to; `nil` for UTC.
    public var timeZone: String?

    /// Whether the account's address has been confirmed.
    public var isEmailConfirmed: Bool { emailConfirmedAt != nil }

    enum CodingKeys: String, CodingKey {
        case id, username, email
        case emailConfirmedAt = "email_confirmed_at"
        case passwordHash = "password_hash"
        case displayName = "display_name"
        case avatarId = "avatar_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case acceptedTermsVersion = "accepted_terms_version"
        case termsAcceptedAt = "terms_accepted_at"
        case analyticsConsentedAt = "analytics_consented_at"
        case timeZone = "time_zone"
    }

    /// The columns, in the order ``CodingKeys`` reads them.
    static let columns = """
        id, username, email, email_confirmed_at, password_hash, display_name, avatar_id, created_at, updated_at, \
        accepted_terms_version, terms_accepted_at, analytics_consented_at, time_zone
        """

    /// The account with `id`.
    static func find(id: String, in database: Database) throws -> UserRecord? {
        try database.decodeOne(UserRecord.self, "SELECT \(columns) FROM users WHERE id = ?", [id])
    }

    /// The account whose address (regardless of case) is `emailKey`.
    static func find(emailKey: String, in database: Database) throws -> UserRecord? {
        try database.decodeOne(UserRecord.self, "SELECT \(columns) FROM users WHERE email_key = ?", [emailKey])
    }
}
