import HearthDomain
import Support

/// How accounts and sessions behave: lifetimes, hashing cost, limits. Read once at start
/// from flags and environment (HearthApp's `ServeSettings`) and passed down.
public struct AccountsConfiguration: Sendable {
    /// The `iss` of access tokens: the server's public base URL.
    public var issuer: String = "hearth"
    /// The `aud` of access tokens.
    public var audience: String = "hearth-api"
    /// How long an access token authenticates (FR-02: 15 minutes).
    public var accessTokenLifetime: Duration = .seconds(15 * 60)
    /// How long a refresh token may go unused before the session ends (30 days); each
    /// refresh starts this period again.
    public var refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600)
    /// The absolute end of a session, counted from sign-in, whatever the refreshes (90 days).
    public var sessionMaximumLifetime: Duration = .seconds(90 * 24 * 3600)
    /// How long the refresh token spent by a rotation still works once more, so a client whose
    /// refresh response was lost on the network can retry.
    public var refreshGracePeriod: Duration = .seconds(30)
    /// How long an address-confirmation link works.
    public var confirmationTokenLifetime: Duration = .seconds(48 * 3600)
    /// How long a password-reset link works (issue: 1 hour).
    public var passwordResetTokenLifetime: Duration = .seconds(3600)
    /// How long the link confirming a new address works.
    public var emailChangeTokenLifetime: Duration = .seconds(24 * 3600)
    /// The most active sessions an account keeps; signing in beyond it ends the least
    /// recently used one.
    public var maximumSessionsPerUser = 50
    /// scrypt's cost for new password hashes (stored with each hash, so it can be raised later).
    public var passwordHashing = ScryptParameters.recommended
    /// Password hashes computed at once; each scrypt with the recommended cost holds 128 MiB
    /// while it runs.
    public var passwordHashingConcurrency = 2
    /// Password checks allowed to wait for a hashing thread; beyond it, sign-ins are refused
    /// with `RATE_LIMITED` instead of queueing without bound.
    public var passwordHashingQueueLimit = 64
    /// Failed sign-ins per account (OWASP ASVS 5.0 V6.3.1: at most 100 an hour).
    public var failedLoginsPerAccount = TokenBucket.Rule.perInterval(90, seconds: 3600, burst: 10)
    /// Failed sign-ins per client address.
    public var failedLoginsPerAddress = TokenBucket.Rule.perInterval(300, seconds: 3600, burst: 30)
    /// Refused `refreshSession` calls (unknown, spent, revoked or expired refresh tokens) per
    /// client address: a refresh is callable signed out, so a flood of made-up tokens is
    /// answered with `RATE_LIMITED` instead of a database lookup each.
    public var failedRefreshesPerAddress = TokenBucket.Rule.perInterval(300, seconds: 3600, burst: 30)
    /// How recent a sign-in must be to stand in for re-authentication: accounts without a
    /// password may change their password, address, sign-in methods and other sessions within
    /// this time after signing in (the session's sign-in, not its latest refresh) without
    /// presenting a fresh provider token.
    public var reauthenticationWindow: Duration = .seconds(5 * 60)
    /// The most sessions whose state is kept in memory (``SessionDirectory``); beyond it the
    /// cache starts afresh and entries are read again on demand.
    public var sessionCacheCapacity = 200_000
    /// Operations that send email (registration, resend, password reset, email change,
    /// invitations) per client address (`--mail-requests-per-address`).
    public var mailRequestsPerAddress = TokenBucket.Rule.perInterval(60, seconds: 3600, burst: 10)
    /// Emails of one kind sent to one address.
    public var mailRequestsPerRecipient = TokenBucket.Rule.perInterval(10, seconds: 3600, burst: 3)

    /// What an avatar must be: PNG, JPEG or WebP by content, at most 1 MiB and 4096 × 4096
    /// pixels by default.
    public var avatarRules = ImageRules()

    /// Who may create an account (`--registration`): anyone, invitees, or nobody.
    public var registration = RegistrationPolicy.open

    /// The defaults.
    public init() {}
}
