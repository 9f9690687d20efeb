extension PostgresStore {
    /// Settings of a PostgreSQL store, fixed when it opens. Every field but the URL has a
    /// production default.
    public struct Configuration: Sendable, Hashable {
        /// The server: a `postgres://` or `postgresql://` URL or a libpq `key=value` string.
        /// Every libpq parameter passes through (`sslmode`, `sslrootcert`, `connect_timeout`,
        /// `application_name`, …).
        public var url: String
        /// The password, read from a file by the caller (`--database-password-file`); overrides
        /// one in the URL. Never logged: ``description`` and errors show the URL redacted.
        public var password: String?
        /// Connections the pool opens at most, so at most this many transactions of this process
        /// run at once. One opens with the store, the others when concurrent transactions first
        /// need them. Default 10, at least 1.
        public var maxConnections: Int
        /// How long a caller waits for a free connection before failing with `.busy`. Default 5 seconds.
        public var acquireTimeout: Duration
        /// How long an open connection may sit unused before the pool closes it, giving its
        /// server session back; it reopens when concurrent transactions next need it. The
        /// connection lent next always stays open. `nil` keeps every connection open once opened.
        /// Default 5 minutes.
        public var idleTimeout: Duration?
        /// Prepared statements kept per connection (least recently used deallocated). Default 64.
        public var statementCacheCapacity: Int
        /// Attempts of a write transaction that keeps failing to serialize (or deadlocks) before
        /// the error reaches the caller. Default 32, at least 1: writers racing on one row (two
        /// admins renaming a member on several instances) each wait behind the others' commits
        /// with a snapshot from before them, so most attempts fail while the race lasts.
        public var maxWriteAttempts: Int
        /// The first retry's backoff; each later one doubles it up to 32 times this, all with
        /// random jitter. Default 2 ms.
        public var retryBackoff: Duration

        /// A configuration for the server at `url`; every other parameter defaults to the documented value.
        public init(
            url: String,
            password: String? = nil,
            maxConnections: Int = 10,
            acquireTimeout: Duration = .seconds(5),
            idleTimeout: Duration? = .seconds(300),
            statementCacheCapacity: Int = 64,
            maxWriteAttempts: Int = 32,
            retryBackoff: Duration = .milliseconds(2)
        ) {
            self.url = url
            self.password = password
            self.maxConnections = maxConnections
            self.acquireTimeout = acquireTimeout
            self.idleTimeout = idleTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.maxWriteAttempts = maxWriteAttempts
            self.retryBackoff = retryBackoff
        }

        /// The URL without its password, for logs and errors.
        public var redactedURL: String {
            PostgresURL.redacted(url)
        }
    }
}
