import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Accounts and sessions (FR-01 – FR-06): registration and email confirmation, sign-in with
/// rotating refresh tokens, sign-out, password reset, profiles.
///
/// Every method that changes state runs in one write transaction: the account, its token and
/// the email carrying the token commit together or not at all. Password hashing runs on the
/// ``WorkerPool`` given at creation, never on an event loop or Swift's cooperative threads.
///
/// The split across files: registration and confirmation (`AccountService+Registration`),
/// sessions (`+Sessions`), password reset and change (`+Passwords`), profile and email change
/// (`+Profile`), Google and Apple sign-in and linking (`+SignInProviders`).
public final class AccountService: Sendable {
    /// The behaviour and limits.
    public let configuration: AccountsConfiguration
    /// The store. Not public: callers reach accounts through the service's functions.
    let pool: any DatabaseWriter
    /// Cached session facts and session-end observers.
    public let sessions: SessionDirectory
    /// Issues and verifies access tokens.
    public let accessTokens: AccessTokens
    /// Rate limits on sign-ins and on email.
    public let throttle: LoginThrottle
    /// Access tokens whose signature and claims were already checked.
    let verifiedTokens = VerifiedTokenCache()
    /// Accounts read since the last commit: the signed-in user is read on most requests.
    let userCache: CommitScopedCache<String, UserRecord?>
    /// The identity providers accounts can sign in with, by provider; a provider absent or
    /// without client IDs is disabled.
    public let identityProviders: [SignInProvider: IdentityProvider]
    let passwordPolicy: PasswordPolicy
    let hashing: WorkerPool
    let hasher: PasswordHasher
    let mail: AccountMail
    let logger: Logger
    /// The clock every time the service stamps or compares comes from.
    let clock: any ServiceClock
    /// Where changes other areas follow are recorded (a time zone change, which replans personal
    /// chores); nil where nothing follows them (tests of accounts alone).
    let changeLog: ChangeLog?

    /// Creates the service.
    /// - Parameters:
    ///   - commonPasswords: The passwords registration refuses (`resources/common-passwords.txt`).
    ///   - identityProviders: Google and Apple, when sign-in with them is configured.
    ///   - clock: The clock; tests pass one they move.
    ///   - changeLog: Where changes other areas follow are recorded (``EventKind/userTimeZoneChanged``).
    public init(
        configuration: AccountsConfiguration, pool: any DatabaseWriter, accessTokens: AccessTokens, mail: AccountMail,
        commonPasswords: [String], identityProviders: [IdentityProvider] = [], logger: Logger,
        clock: any ServiceClock = SystemClock(), changeLog: ChangeLog? = nil
    ) {
        self.configuration = configuration
        self.identityProviders = Dictionary(identityProviders.map { ($0.configuration.provider, $0) }) { _, last in last }
        self.pool = pool
        self.accessTokens = accessTokens
        self.mail = mail
        self.logger = logger
        self.clock = clock
        self.changeLog = changeLog
        sessions = SessionDirectory(capacity: configuration.sessionCacheCapacity)
        userCache = CommitScopedCache(pool: pool, tables: ["users"])  // UserRecord reads `users` alone
        throttle = LoginThrottle(configuration: configuration, clock: clock)
        passwordPolicy = PasswordPolicy(commonPasswords: commonPasswords)
        hashing = WorkerPool(
            label: "password-hashing", concurrency: configuration.passwordHashingConcurrency,
            queueLimit: configuration.passwordHashingQueueLimit)
        hasher = PasswordHasher(parameters: configuration.passwordHashing)
    }

    // MARK: - Shared steps

    /// Hashes `password` on a hashing thread.
    /// - Throws: `RATE_LIMITED` when too many hashes are waiting.
    func hashPassword(_ password: String) async throws -> String {
        let hasher = hasher
        do {
            return try await hashing.run { try hasher.hash(password) }
        } catch is WorkerPoolError {
            throw ServiceError.rateLimited(retryAfter: 1)
        }
    }

    /// Checks `password` against `encoded` on a hashing thread. Without a stored hash (an
    /// unknown account, or one that signs in only through Google or Apple) the password is
    /// hashed anyway, with the same cost, so the answer takes as long as for a real account.
    /// - Parameter userID: The account the hash belongs to, for the log.
    /// - Throws: `RATE_LIMITED` when too many hashes are waiting; the `PasswordHashError` of a
    ///   stored hash that cannot be used (malformed, unsupported parameters): corrupt data is an
    ///   internal error, never a wrong password, so it is noticed and mended.
    func verifyPassword(_ password: String, against encoded: String?, of userID: String?) async throws -> Bool {
        let hasher = hasher
        do {
            return try await hashing.run {
                guard let encoded else {
                    _ = try? hasher.hash(password)
                    return false
                }
                return try hasher.verify(password, against: encoded)
            }
        } catch is WorkerPoolError {
            throw ServiceError.rateLimited(retryAfter: 1)
        } catch let error as PasswordHashError {
            logger.error("stored password hash is unusable", ["user.id": userID ?? "", "error": error.description])
            throw error
        }
    }

    /// The account with `id`.
    public func user(id: String) async throws -> UserRecord? {
        try await userCache.value(for: id) { try UserRecord.find(id: id, in: $0) }
    }

    /// The accounts with `ids`, each `nil` when there is none: cached ones, and the others read
    /// together in one statement (a list of members showing their accounts reads once, not once
    /// per member).
    public func users(ids: [String]) async throws -> [String: UserRecord?] {
        try await userCache.values(for: ids) { ids, database in try UserRecord.find(ids: ids, in: database) }
    }

    /// The account with `id` if the cache holds it (`.some(nil)`: there is no such account);
    /// `nil` when it would have to be read.
    public func cachedUser(id: String) -> UserRecord?? {
        userCache.cachedValue(for: id)
    }

    /// The account with `id` without waiting: cached, or read on the calling thread if a
    /// database reader is idle. The outer optional is `nil` when neither, and the caller should
    /// use the `async` ``user(id:)``. For resolvers that answer inline on the event loop.
    public func userWithoutWaiting(id: String) throws -> UserRecord?? {
        try userCache.valueWithoutWaiting(for: id) { try UserRecord.find(id: id, in: $0) }
    }

    /// Creates a single-use emailed token for the owner inside the caller's transaction: its row
    /// keeps the token's id, never the token (see ``LinkTokens``).
    func insertEmailToken(
        purpose: EmailTokenPurpose, email: String, lifetime: Duration, at now: Date, _ owner: OwnerScope
    ) throws -> LinkToken {
        let token = mail.links.issue(.emailToken)
        try owner.execute(
            "INSERT INTO email_tokens (token_id, user_id, purpose, email, created_at, expires_at) VALUES (?, {owner}, ?, ?, ?, ?)",
            [token.id, purpose.rawValue, email, now, now.adding(lifetime)])
        return token
    }

    /// The emailed token `presented`, as stored, spent or not; nil when it was not made with the
    /// link key or its row is gone. A credential lookup: the token names its owner, so it is
    /// read across owners.
    func storedEmailToken(_ presented: String, in database: Database) throws -> SpentEmailToken? {
        guard let id = mail.links.id(of: presented, as: .emailToken) else { return nil }
        return try database.decodeOne(
            SpentEmailToken.self, "SELECT token_id, user_id, email, purpose, expires_at, used_at FROM email_tokens WHERE token_id = ?", [id])
    }

    /// The unexpired, unused token `presented`, if it was made with the link key and serves one
    /// of `purposes`; nil otherwise.
    func liveEmailToken(
        _ presented: String, purposes: Set<EmailTokenPurpose>, at now: Date, in database: Database
    ) throws -> SpentEmailToken? {
        guard let token = try storedEmailToken(presented, in: database),
              purposes.contains(token.purpose), token.usedAt == nil, now < token.expiresAt
        else { return nil }
        return token
    }

    /// Spends the unexpired, unused token `presented`, if it serves one of `purposes`, inside
    /// the caller's transaction, and returns what it was issued for.
    /// - Throws: `linkInvalid` for an unknown, forged, spent or expired token, or one of
    ///   another purpose.
    func spendEmailToken(
        _ presented: String, purposes: Set<EmailTokenPurpose>, at now: Date, in database: Database
    ) throws -> SpentEmailToken {
        guard let token = try liveEmailToken(presented, purposes: purposes, at: now, in: database) else { throw ServiceError.linkInvalid }
        try OwnerScope(Owner(authenticated: token.userID), database).execute(
            "UPDATE email_tokens SET used_at = ? WHERE token_id = ? AND user_id = {owner}", [now, token.id])
        return token
    }

    /// Marks every unused token of `purpose` of the owner as used (a new one replaces them, or
    /// the state they would change no longer exists).
    func retireEmailTokens(purpose: EmailTokenPurpose, at now: Date, _ owner: OwnerScope) throws {
        try owner.execute(
            "UPDATE email_tokens SET used_at = ? WHERE user_id = {owner} AND purpose = ? AND used_at IS NULL", [now, purpose.rawValue])
    }
}

/// What an emailed token is for (`email_tokens.purpose`).
enum EmailTokenPurpose: String, Decodable {
    case confirmEmail = "confirm_email"
    case resetPassword = "reset_password"
    case changeEmail = "change_email"
}

/// An emailed token as stored, read when it is spent.
struct SpentEmailToken: Decodable {
    var id: [UInt8]
    var userID: String
    var email: String
    var purpose: EmailTokenPurpose
    var expiresAt: Date
    var usedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id = "token_id"
        case userID = "user_id"
        case email, purpose
        case expiresAt = "expires_at"
        case usedAt = "used_at"
    }
}

extension Date {
    /// The date `duration` later.
    func adding(_ duration: Duration) -> Date {
        let (seconds, attoseconds) = duration.components
        return addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
