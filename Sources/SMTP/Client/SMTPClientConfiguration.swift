/// How an ``SMTPClient`` talks to its server: transport security, credentials, the name it
/// gives in `EHLO`, and how long it waits.
public struct SMTPClientConfiguration: Sendable, Hashable {
    /// Whether and how the connection is encrypted.
    public enum Security: String, Sendable, Hashable {
        /// TLS from the first byte (submissions on port 465, RFC 8314).
        case implicitTLS
        /// Plain connection upgraded with STARTTLS (RFC 3207); the delivery fails when the
        /// server does not offer it. The default, for port 587.
        case startTLSRequired
        /// STARTTLS when the server offers it, otherwise plain text (a relay on a trusted network).
        case startTLSOpportunistic
        /// Never encrypt (a local development server).
        case plaintext
    }

    /// A user name and password for `AUTH PLAIN` or `AUTH LOGIN` (RFC 4954).
    public struct Credentials: Sendable, Hashable {
        /// The user name.
        public var username: String
        /// The password.
        public var password: String

        /// Credentials.
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// Whether and how the connection is encrypted; `.startTLSRequired` by default.
    public var security: Security
    /// Credentials, or nil to send without authenticating.
    public var credentials: Credentials?
    /// Whether credentials may be sent over an unencrypted connection; false by default, so a
    /// password never crosses the network in clear text unless explicitly allowed.
    public var allowsAuthenticationWithoutTLS: Bool
    /// The domain given in `EHLO`/`HELO`, this host's name; `localhost` by default.
    public var clientName: String
    /// How long connecting may take, and each command's reply; 60 seconds by default.
    public var commandTimeout: Duration
    /// How long the server may take to accept the message after its final dot; 10 minutes by
    /// default (RFC 5321 §4.5.3.2.6).
    public var dataTimeout: Duration

    /// A configuration with the defaults, or the given values.
    public init(
        security: Security = .startTLSRequired, credentials: Credentials? = nil, allowsAuthenticationWithoutTLS: Bool = false,
        clientName: String = "localhost", commandTimeout: Duration = .seconds(60), dataTimeout: Duration = .seconds(600)
    ) {
        self.security = security
        self.credentials = credentials
        self.allowsAuthenticationWithoutTLS = allowsAuthenticationWithoutTLS
        self.clientName = clientName
        self.commandTimeout = commandTimeout
        self.dataTimeout = dataTimeout
    }
}
