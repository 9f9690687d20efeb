import FoundationEssentials
import HearthStore

/// An account as stored in `users`.
public struct UserRecord: Sendable, Hashable, FetchableRecord {
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
    /// When the server's administrator disabled the account (`hearth admin disable`); `nil`
    /// while it may sign in.
    public var disabledAt: Date?

    /// Whether the account's address has been confirmed.
    public var isEmailConfirmed: Bool { emailConfirmedAt != nil }

    /// The columns, in the order ``init(row:)`` reads them.
    public static let columns = RecordColumns(
        "id", "username", "email", "email_confirmed_at", "password_hash", "display_name", "avatar_id", "created_at", "updated_at",
        "accepted_terms_version", "terms_accepted_at", "analytics_consented_at", "time_zone", "disabled_at")

    /// Reads the account from a row of ``columns``.
    public init(row: RecordRow) throws {
        id = try row[0]
        username = try row[1]
        email = try row[2]
        emailConfirmedAt = try row[3]
        passwordHash = try row[4]
        displayName = try row[5]
        avatarId = try row[6]
        createdAt = try row[7]
        updatedAt = try row[8]
        acceptedTermsVersion = try row[9]
        termsAcceptedAt = try row[10]
        analyticsConsentedAt = try row[11]
        timeZone = try row[12]
        disabledAt = try row[13]
    }

    /// The account with `id`.
    static func find(id: String, in database: Database) throws -> UserRecord? {
        try database.decodeOne(UserRecord.self, "SELECT \(columns) FROM users WHERE id = ?", [id])
    }

    /// The accounts with `ids`, in one statement; an id without an account maps to `nil`.
    static func find(ids: [String], in database: Database) throws -> [String: UserRecord?] {
        var users = Dictionary(uniqueKeysWithValues: ids.map { ($0, UserRecord?.none) })
        let list = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        for user in try database.decode(UserRecord.self, "SELECT \(columns) FROM users WHERE id IN (\(list))", StatementArguments(ids.map { $0 })) {
            users[user.id] = user
        }
        return users
    }

    /// The account whose address (regardless of case) is `emailKey`.
    static func find(emailKey: String, in database: Database) throws -> UserRecord? {
        try database.decodeOne(UserRecord.self, "SELECT \(columns) FROM users WHERE email_key = ?", [emailKey])
    }
}
