import FoundationEssentials
import HearthStore

/// An account as `hearth admin users` lists it for the server's administrator.
public struct AdministeredAccount: Sendable, Hashable, Decodable {
    /// The account's id.
    public var id: String
    /// Its current address.
    public var email: String
    /// Its username.
    public var username: String
    /// When it was created.
    public var createdAt: Date
    /// When its latest session began (a sign-in); `nil` when it never signed in.
    public var lastSignInAt: Date?
    /// When the administrator disabled it; `nil` while it may sign in.
    public var disabledAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, email, username
        case createdAt = "created_at"
        case lastSignInAt = "last_sign_in_at"
        case disabledAt = "disabled_at"
    }

    /// The select list of `users` (and its latest session) that ``CodingKeys`` reads. The
    /// sessions' subquery runs without an owner scope on purpose: the administrator's listing
    /// covers every account at once, like retention, for whoever holds the database file.
    static let columns = """
        id, email, username, created_at, disabled_at,
        (SELECT max(created_at) FROM sessions WHERE sessions.user_id = users.id) AS last_sign_in_at
        """
}
