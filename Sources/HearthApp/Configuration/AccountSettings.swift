import HearthDomain
import HearthServices
import Support

/// How accounts, sessions and sign-in limits are configured (`hearth serve`).
struct AccountSettings: Sendable {
    /// The accounts service's configuration.
    var accounts: AccountsConfiguration
    /// The file holding the access-token signing key, when one is given; otherwise the key
    /// directory's `access-token.key` (``ServerKeys``).
    var accessTokenKeyFile: String?

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--access-token-ttl", "DURATION", environment: "HEARTH_ACCESS_TOKEN_TTL", default: "15m",
               help: "How long an access token (JWT) authenticates."),
        .value("--refresh-token-ttl", "DURATION", environment: "HEARTH_REFRESH_TOKEN_TTL", default: "30d",
               help: "How long a session may go without a refresh before it ends."),
        .value("--session-max-lifetime", "DURATION", environment: "HEARTH_SESSION_MAX_LIFETIME", default: "90d",
               help: "The absolute end of a session after sign-in, however often it is refreshed."),
        .value("--access-token-key-file", "PATH", environment: "HEARTH_ACCESS_TOKEN_KEY_FILE", default: nil,
               help: "File with the HS256 key signing access tokens (at least 32 bytes, base64url or raw; mode 0600 or stricter). Default: access-token.key in --key-directory, generated on first start."),
        .value("--password-hash-cost", "LOG2N", environment: "HEARTH_PASSWORD_HASH_COST", default: "17",
               help: "scrypt cost (N = 2^LOG2N, r=8, p=1) for new password hashes; 17 takes 128 MiB and about 0.3 s per hash."),
        .value("--password-hash-threads", "N", environment: "HEARTH_PASSWORD_HASH_THREADS", default: "2",
               help: "Password hashes computed at once (each holds 128 MiB at the default cost)."),
        .value("--avatar-max-bytes", "BYTES", environment: "HEARTH_AVATAR_MAX_BYTES", default: "1MiB",
               help: "Largest avatar image (PNG, JPEG or WebP); keep --max-upload-bytes above it for the request's envelope."),
        .value("--avatar-max-dimension", "PIXELS", environment: "HEARTH_AVATAR_MAX_DIMENSION", default: "4096",
               help: "Most pixels across and down of an avatar image."),
        .value("--login-failures-per-account", "N", environment: "HEARTH_LOGIN_FAILURES_PER_ACCOUNT", default: "100",
               help: "Failed sign-ins allowed per account per hour (a burst of a tenth, then spread over the hour)."),
        .value("--login-failures-per-address", "N", environment: "HEARTH_LOGIN_FAILURES_PER_ADDRESS", default: "330",
               help: "Failed sign-ins allowed per client address per hour (a burst of a tenth, then spread over the hour)."),
        .value("--refresh-failures-per-address", "N", environment: "HEARTH_REFRESH_FAILURES_PER_ADDRESS", default: "330",
               help: "Refused refreshSession calls (unknown, spent or ended refresh tokens) allowed per client address per hour (a burst of a tenth, then spread over the hour)."),
        .value("--mail-requests-per-address", "N", environment: "HEARTH_MAIL_REQUESTS_PER_ADDRESS", default: nil,
               help: "Requests that send email (registration, resending a confirmation, password reset, email change, invitations) allowed per client address per hour (a burst of a tenth, then spread over the hour). Default: a burst of 10, then 60 over the hour."),
        .value("--reauthentication-window", "DURATION", environment: "HEARTH_REAUTHENTICATION_WINDOW", default: "5m",
               help: "How long after signing in an account without a password may change its password, address, sign-in methods or other sessions without a fresh Google or Apple sign-in."),
        .value("--max-sessions-per-user", "N", environment: "HEARTH_MAX_SESSIONS_PER_USER", default: "50",
               help: "Sessions (signed-in devices) one account may have; a new sign-in beyond it ends the least recently used one."),
        .value("--registration", "open|invite-only|closed", environment: "HEARTH_REGISTRATION", default: "open",
               help: "Who may create an account (register, or a first Google or Apple sign-in): anyone; only someone holding a household invitation sent to the new account's address; or nobody. Existing accounts always sign in."),
    ]

    /// Reads the settings from parsed options.
    /// - Parameter issuer: The access tokens' `iss`: the public base URL.
    init(_ options: ParsedOptions, issuer: String) throws {
        var accounts = AccountsConfiguration()
        accounts.issuer = issuer
        let day = 86_400
        accounts.accessTokenLifetime =
            try options.duration("--access-token-ttl", in: .seconds(10)...(.seconds(day))) ?? accounts.accessTokenLifetime
        accounts.refreshTokenLifetime =
            try options.duration("--refresh-token-ttl", in: .seconds(60)...(.seconds(365 * day))) ?? accounts.refreshTokenLifetime
        accounts.sessionMaximumLifetime =
            try options.duration("--session-max-lifetime", in: .seconds(60)...(.seconds(3650 * day))) ?? accounts.sessionMaximumLifetime
        if let cost = try options.integer("--password-hash-cost", in: 10...22) {
            accounts.passwordHashing = ScryptParameters(logN: UInt8(cost), r: 8, p: 1)
        }
        accounts.passwordHashingConcurrency =
            try options.integer("--password-hash-threads", in: 1...64) ?? accounts.passwordHashingConcurrency
        if let bytes = try options.byteCount("--avatar-max-bytes", in: 1...(1 << 30)) {
            accounts.avatarRules.maximumBytes = bytes
        }
        if let pixels = try options.integer("--avatar-max-dimension", in: 1...65_535) {
            accounts.avatarRules.maximumWidth = pixels
            accounts.avatarRules.maximumHeight = pixels
        }
        if let perAccount = try options.integer("--login-failures-per-account", in: 1...1_000_000) {
            accounts.failedLoginsPerAccount = Self.hourlyRule(total: perAccount)
        }
        if let perAddress = try options.integer("--login-failures-per-address", in: 1...1_000_000) {
            accounts.failedLoginsPerAddress = Self.hourlyRule(total: perAddress)
        }
        if let perAddress = try options.integer("--refresh-failures-per-address", in: 1...1_000_000) {
            accounts.failedRefreshesPerAddress = Self.hourlyRule(total: perAddress)
        }
        if let perAddress = try options.integer("--mail-requests-per-address", in: 1...1_000_000) {
            accounts.mailRequestsPerAddress = Self.hourlyRule(total: perAddress)
        }
        accounts.reauthenticationWindow =
            try options.duration("--reauthentication-window", in: .zero...(.seconds(day))) ?? accounts.reauthenticationWindow
        accounts.maximumSessionsPerUser =
            try options.integer("--max-sessions-per-user", in: 1...10_000) ?? accounts.maximumSessionsPerUser
        accounts.registration = try options.choice(
            "--registration", Dictionary(uniqueKeysWithValues: RegistrationPolicy.allCases.map { ($0.flagValue, $0) })) ?? .open
        self.accounts = accounts
        accessTokenKeyFile = options.string("--access-token-key-file")
    }

    /// A bucket allowing at most `total` events in any hour: a burst of a tenth, the rest
    /// refilled over the hour.
    static func hourlyRule(total: Int) -> TokenBucket.Rule {
        let burst = max(1, Double(total / 10))
        return TokenBucket.Rule.perInterval(max(Double(total) - burst, 1), seconds: 3600, burst: burst)
    }
}
