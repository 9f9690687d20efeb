import FoundationEssentials
import HearthDomain
import HearthStore
import Synchronization

/// Following between users (US 05) and the following feed (US 06.03).
///
/// - **Asking and answering** (`+Requests`): `requestFollow` by username (case-insensitively),
///   then the followed user accepts or declines. Declining, unfollowing (which also withdraws a
///   request) and removing a follower delete the row (`follows`, migration 0022), so a new request
///   can be made later. Limits: follows per user, requests waiting per user, and a rate of
///   requests per user (``FollowingConfiguration``).
/// - **Seeing**: only an accepted follow shows the follower the followed user's non-private habits
///   and their events, through ``HabitAudience`` (the one rule of every habit read), and nothing
///   else of the account but its public profile (username, display name, avatar). Every read checks
///   the follow in its own transaction, so an unfollow or a removal takes effect at the next read.
/// - **Lists** (`+Lists`): followers, following, requests waiting for the viewer's answer and
///   those the viewer sent, newest first, as pages.
/// - **The feed** (`+Feed`): recent events of the users the viewer follows, newest first.
/// - **Live**: every change is recorded on both users' topics (``FollowChange``), so each of their
///   devices learns of it without polling.
public final class FollowService: Sendable {
    /// Limits.
    public let configuration: FollowingConfiguration
    /// Households: the store, the change log, the clock and replay-protected transactions.
    public let households: HouseholdService
    /// Follow requests per requesting user.
    private let requestLimiter: Mutex<RateLimiter>

    /// Creates the service.
    public init(configuration: FollowingConfiguration, households: HouseholdService) {
        self.configuration = configuration
        self.households = households
        requestLimiter = Mutex(RateLimiter(rule: configuration.followRequestsPerUser))
    }

    var pool: any DatabaseWriter { households.pool }
    var clock: any ServiceClock { households.clock }

    /// Runs `change` in one write transaction as `viewer`'s mutation `mutation`, remembered under
    /// `clientMutationID` (``MutationReplay``), about `target`, with the time.
    func mutate<Result: Codable & Sendable>(
        _ mutation: String, by viewer: Viewer, replaying clientMutationID: String?, about target: String? = nil,
        _ change: @escaping @Sendable (Database, Date) throws -> Result
    ) async throws -> Result {
        let now = clock.storedNow
        return try await households.mutate(mutation, by: viewer, replaying: clientMutationID, about: target, at: now) { database in
            try change(database, now)
        }
    }

    /// Records `kind` for `follow` on the topics of both its users, to publish after commit.
    func record(_ kind: EventKind, _ follow: FollowChange, in database: Database) throws {
        for userID in [follow.followerID, follow.followedID] {
            try households.changeLog.record(topic: .user(userID), kind: kind, payload: follow, in: database)
        }
    }

    /// Records, on the follower's topic, that an accepted follow shows them the followed user's
    /// habits visible to followers (offline sync's scope `followers:<followed>`), or that a follow
    /// which did no longer does; a request withdrawn or declined showed nothing.
    func recordSyncScope(_ kind: EventKind, _ follow: FollowChange, wasAccepted: Bool, in database: Database) throws {
        let scope = Topic.followers(follow.followedID)
        if kind == .followAccepted {
            try SyncScopeChange.record(.syncScopeGained, scope: scope, for: follow.followerID, households.changeLog, in: database)
        } else if wasAccepted {
            try SyncScopeChange.record(.syncScopeLost, scope: scope, for: follow.followerID, households.changeLog, in: database)
        }
    }

    /// Takes one follow request of `viewer` from their rate limit.
    /// - Throws: `RATE_LIMITED` with the seconds until the next request may be made.
    func takeRequestToken(_ viewer: Viewer) throws {
        let now = clock.monotonicSeconds
        let wait = requestLimiter.withLock { limiter -> Double in
            let wait = limiter.waitTime(for: viewer.userID, now: now)
            if wait == 0 { _ = limiter.take(for: viewer.userID, now: now) }
            return wait
        }
        if wait > 0 { throw ServiceError.rateLimited(retryAfter: wait) }
    }

    /// The follow `id` as it is now, when `viewer` is one of its two users.
    /// - Throws: `NOT_FOUND` otherwise (unknown, malformed, gone, someone else's: alike).
    public func follow(id: String, viewer: Viewer) async throws -> FollowRecord {
        guard GlobalID.mayName(.follow, id) else { throw ServiceError.followNotFound }
        return try await pool.readPreferringCallingThread { database in
            guard let follow = try Self.follows(ids: [id], viewer: viewer, in: database).first else { throw ServiceError.followNotFound }
            return follow
        }
    }

    /// The follows among `ids` that `viewer` is one of the two users of (`node` lookups).
    public func follows(ids: [String], viewer: Viewer) async throws -> [FollowRecord] {
        try await pool.readPreferringCallingThread { database in try Self.follows(ids: ids, viewer: viewer, in: database) }
    }

    /// The follows among `ids` that `viewer` is one of the two users of (``follow(id:viewer:)``).
    static func follows(ids: [String], viewer: Viewer, in database: Database) throws -> [FollowRecord] {
        let ids = ids.filter { GlobalID.mayName(.follow, $0) }
        guard !ids.isEmpty else { return [] }
        let rows = try OwnerScope(Owner(viewer), database).query(
            """
            SELECT \(FollowRecord.columns) FROM follows
            WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", "))) AND {owner} IN (follower_id, followed_id)
            """,
            StatementArguments(ids.map { $0 }))
        return try FollowRecord.read(rows, in: database)
    }
}

/// The follow a mutation's result names, as ``MutationReplay`` stores it.
struct FollowReference: Codable {
    var followID: String
}

extension ServiceError {
    /// A follow (or follow request) that does not exist or is not the caller's to see or answer.
    public static let followNotFound = ServiceError(.notFound, "No such follow or follow request.")
}
