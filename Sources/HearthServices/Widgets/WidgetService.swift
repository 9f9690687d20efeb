import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Home-screen widgets (issue 19, FR-65, FR-66): the feed of today's chores, the widget tokens it
/// is read with, and the one-tap actions its entries carry.
///
/// - **Feed** (`+Feed`): ``feed(viewer:)``.
/// - **Widget tokens** (here): a widget cannot refresh a session, so the user makes a long-lived,
///   narrow credential for it. Shown once (`hwt_` and 43 base64url characters), stored as its
///   SHA-256 (`widget_tokens`), revoked by deleting the row, which every request reads: a revoked
///   token is refused at once. A token reads the feed and sends one-tap actions; nothing else
///   accepts it (it is not an access token, so `/graphql` answers `UNAUTHENTICATED`).
/// - **One-tap actions** (`+Actions`): signed links (``WidgetActionLinks``) completing an instance
///   through `completeChore`'s own path.
public final class WidgetService: Sendable {
    /// Chore instances: the lists, `completeChore`, and through them households and the store.
    public let instances: ChoreInstanceService
    /// The action links' signer.
    public let links: WidgetActionLinks
    /// The limits.
    public let configuration: WidgetConfiguration
    /// The public base URL the action links and the web fallback of deep links start with.
    public let baseURL: PublicBaseURL

    /// What every widget token starts with, so a route tells it from an access token (a JWT).
    public static let tokenPrefix = "hwt_"
    /// The longest label of a token.
    public static let maximumLabelLength = 100

    /// Creates the service.
    public init(instances: ChoreInstanceService, links: WidgetActionLinks, configuration: WidgetConfiguration, baseURL: PublicBaseURL) {
        self.instances = instances
        self.links = links
        self.configuration = configuration
        self.baseURL = baseURL
    }

    var pool: any DatabaseWriter { instances.pool }
    var clock: any ServiceClock { instances.clock }

    /// Makes a widget token for the viewer, labelled `label` (e.g. "Kitchen iPad").
    /// - Returns: The token (shown only now) and its record.
    /// - Throws: `BAD_USER_INPUT` (`TOO_LONG` on `input.label`); `CONFLICT` `LIMIT_REACHED` when
    ///   the viewer holds ``WidgetConfiguration/maximumTokens`` already. Nothing is made then.
    public func createWidgetToken(label: String?, viewer: Viewer) async throws -> (token: String, record: WidgetTokenRecord) {
        let label = label?.trimmingSpaces()
        if let label, label.count > Self.maximumLabelLength {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.label", reason: .tooLong, message: "A label has at most \(Self.maximumLabelLength) characters.")]))
        }
        let token = Self.tokenPrefix + Base64URL.encode(SecureRandom.bytes(32))
        let now = clock.storedNow
        let record = WidgetTokenRecord(id: GlobalID.make(.widgetToken, now: now).rawValue, label: label?.isEmpty == true ? nil : label, createdAt: now)
        let maximum = configuration.maximumTokens
        try await pool.write { database in
            let owner = OwnerScope(Owner(viewer), database)
            let count = try owner.scalar(Int.self, "SELECT count(*) FROM widget_tokens WHERE user_id = {owner}") ?? 0
            guard count < maximum else {
                throw ServiceError(
                    .conflict, reason: .limitReached, "You have \(count) widget tokens, the most allowed. Revoke one you no longer use first.")
            }
            try owner.execute(
                "INSERT INTO widget_tokens (id, user_id, token_hash, label, created_at) VALUES (?, {owner}, ?, ?, ?)",
                [record.id, SHA256.hexDigest(token), record.label, now])
        }
        return (token, record)
    }

    /// Revokes the viewer's widget token `id`: it is refused from the next request on. A replay
    /// with the same `clientMutationID` answers the token revoked the first time.
    /// - Returns: The revoked token's record.
    /// - Throws: `NOT_FOUND` for an id that is none of the viewer's tokens (or revoked before,
    ///   without a replay).
    public func revokeWidgetToken(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> WidgetTokenRecord {
        guard GlobalID.mayName(.widgetToken, id) else { throw ServiceError.widgetTokenNotFound }
        let now = clock.storedNow
        return try await pool.write { database in
            let owner = OwnerScope(Owner(viewer), database)
            return try MutationReplay.run(clientMutationID: clientMutationID, mutation: "revokeWidgetToken", at: now, owner) {
                guard let row = try owner.queryOne(
                    "DELETE FROM widget_tokens WHERE user_id = {owner} AND id = ? RETURNING id, label, created_at, last_used_at", [id])
                else { throw ServiceError.widgetTokenNotFound }
                return try WidgetTokenRecord(row: row)
            }
        }
    }

    /// The viewer's widget tokens, newest first.
    public func widgetTokens(viewer: Viewer) async throws -> [WidgetTokenRecord] {
        try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).query(
                "SELECT id, label, created_at, last_used_at FROM widget_tokens WHERE user_id = {owner} ORDER BY created_at DESC, id DESC"
            ).map(WidgetTokenRecord.init(row:))
        }
    }

    /// The viewer a widget token stands for, or `nil` when no token is `token` (never made, or
    /// revoked). The viewer's session is the token (its id), signed in when it was made. Only the
    /// widget routes call this: what the viewer may do with it is theirs to limit.
    ///
    /// Records the use as the token's `lastUsedAt` when the one recorded is older than
    /// ``WidgetConfiguration/lastUseInterval`` (or none is): one write per token per interval
    /// however often the widget polls, so `lastUsedAt` lags by at most the interval.
    public func viewer(widgetToken token: String) async throws -> Viewer? {
        guard token.hasPrefix(Self.tokenPrefix) else { return nil }
        let hash = SHA256.hexDigest(token)
        let now = clock.storedNow
        let staleBefore = now.adding(.zero - configuration.lastUseInterval)
        let found = try await pool.readPreferringCallingThread { database in
            try Self.token(hash: hash, in: database).map { row -> (Viewer, Date?) in
                (Viewer(userID: try row["user_id"], sessionID: try row["id"], signedInAt: try row["created_at"]), try row["last_used_at"])
            }
        }
        guard let found else { return nil }
        let (viewer, lastUsedAt) = found
        if lastUsedAt.map({ $0 <= staleBefore }) ?? true {
            try await pool.write { database in
                try OwnerScope(Owner(viewer), database).execute(
                    "UPDATE widget_tokens SET last_used_at = ? WHERE user_id = {owner} AND id = ? AND (last_used_at IS NULL OR last_used_at <= ?)",
                    [now, viewer.sessionID, staleBefore])
            }
        }
        return viewer
    }

    /// The widget token whose secret hashes to `hash`: read before any access exists, the secret
    /// is the credential.
    private static func token(hash: String, in database: Database) throws -> Row? {
        try database.queryOne("SELECT id, user_id, created_at, last_used_at FROM widget_tokens WHERE token_hash = ?", [hash])
    }
}

/// A widget token as its owner sees it (the secret is shown only when it is made).
public struct WidgetTokenRecord: Sendable, Hashable, Codable {
    /// Its id (`wgt_…`).
    public var id: String
    /// What the user called it.
    public var label: String?
    /// When it was made.
    public var createdAt: Date
    /// When a request last used it, to ``WidgetConfiguration/lastUseInterval``; nil before the first.
    public var lastUsedAt: Date?

    /// The record of a `widget_tokens` row.
    init(row: Row) throws {
        self.init(id: try row["id"], label: try row["label"], createdAt: try row["created_at"], lastUsedAt: try row["last_used_at"])
    }

    /// A record with these values.
    init(id: String, label: String?, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

extension ServiceError {
    /// A widget token that is not one of the viewer's.
    static let widgetTokenNotFound = ServiceError(.notFound, "No widget token of yours has this id.")
}
