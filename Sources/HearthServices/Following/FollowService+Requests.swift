import FoundationEssentials
import HearthDomain
import HearthStore

extension FollowService {
    /// Asks to follow the user whose username is `username` (case-insensitively, US 05): they see
    /// the request among theirs and accept or decline it; until they accept, `viewer` sees nothing
    /// of theirs. Each attempt, refused or not, takes one request from `viewer`'s rate, so usernames
    /// cannot be probed quickly.
    /// - Throws: `BAD_USER_INPUT` on `input.username` (malformed; `NOT_ALLOWED` for the viewer's
    ///   own); `NOT_FOUND` for no such user; `CONFLICT` with reason `ALREADY_FOLLOWING` or
    ///   `ALREADY_REQUESTED`, or `LIMIT_REACHED` at the follows-per-user or pending-requests
    ///   limit; `RATE_LIMITED` beyond the request rate; `CONFLICT` for a reused `clientMutationID`;
    ///   for `id` (made offline, `fol_<uuid>`), as ``ClientIDs/claim(_:_:field:_:at:)``.
    public func requestFollow(username text: String, id: String? = nil, viewer: Viewer, clientMutationID: String? = nil) async throws -> FollowRecord {
        let username: Username
        do {
            username = try Username(text, field: "input.username")
        } catch {
            throw ServiceError.invalid(InputProblems([error]))
        }
        let configuration = configuration
        let created = try await mutate("requestFollow", by: viewer, replaying: clientMutationID) { [self] database, now in
            let owner = OwnerScope(Owner(viewer), database)
            let followID: String
            switch try ClientIDs.claim(id, .follow, owner, at: now) {
            case .existing(let made): return FollowReference(followID: made)
            case .create(let new): followID = new
            }
            try takeRequestToken(viewer)
            guard let followedID = try database.scalar(String.self, "SELECT id FROM users WHERE username_key = ?", [username.key]) else {
                throw ServiceError.userNotFound
            }
            guard followedID != viewer.userID else {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.username", reason: .notAllowed, message: "You cannot follow yourself: your habits are yours already.")]))
            }
            if let status = try owner.scalar(String.self, "SELECT status FROM follows WHERE follower_id = {owner} AND followed_id = ?", [followedID]) {
                throw status == FollowStatus.accepted.rawValue
                    ? ServiceError(.conflict, reason: .alreadyFollowing, "You already follow \(username.value).")
                    : ServiceError(.conflict, reason: .alreadyRequested, "You already asked to follow \(username.value); they have not answered yet.")
            }
            let follows = try owner.scalar(Int.self, "SELECT count(*) FROM follows WHERE follower_id = {owner}") ?? 0
            guard follows < configuration.maximumFollowsPerUser else {
                throw ServiceError(.conflict, reason: .limitReached, "You follow or asked to follow \(follows) people, the most allowed. Unfollow someone first.")
            }
            let pending = try owner.scalar(Int.self, "SELECT count(*) FROM follows WHERE follower_id = {owner} AND status = 'requested'") ?? 0
            guard pending < configuration.maximumPendingRequestsPerUser else {
                throw ServiceError(
                    .conflict, reason: .limitReached,
                    "You have \(pending) follow requests waiting for an answer, the most allowed. Wait for answers, or withdraw one.")
            }
            try owner.execute(
                "INSERT INTO follows (id, follower_id, followed_id, status, requested_at) VALUES (?, {owner}, ?, 'requested', ?)",
                [followID, followedID, now])
            try record(.followRequested, FollowChange(followID: followID, followerID: viewer.userID, followedID: followedID), in: database)
            return FollowReference(followID: followID)
        }
        return try await Tombstones.answer(about: created.followID, viewer: viewer, in: pool) { try await follow(id: created.followID, viewer: viewer) }
    }

    /// Accepts a follow request made to `viewer`: from now on its follower sees `viewer`'s
    /// non-private habits and their events.
    /// - Throws: `NOT_FOUND` for a follow that is not a request waiting for `viewer`'s answer
    ///   (unknown, someone else's, answered already: alike); `CONFLICT` for a reused `clientMutationID`.
    public func acceptFollowRequest(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> FollowRecord {
        try await change(
            id, viewer: viewer, mutation: "acceptFollowRequest", clientMutationID: clientMutationID, recording: .followAccepted, deleting: false
        ) {
            owner, now in
            try owner.execute(
                "UPDATE follows SET status = 'accepted', accepted_at = ? WHERE id = ? AND followed_id = {owner} AND status = 'requested'", [now, id])
        }
        return try await Tombstones.answer(about: id, viewer: viewer, in: pool) { try await follow(id: id, viewer: viewer) }
    }

    /// Declines a follow request made to `viewer`; its sender may ask again later.
    /// - Returns: The request's id (also on a replay).
    /// - Throws: As ``acceptFollowRequest(id:viewer:clientMutationID:)``.
    public func declineFollowRequest(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await change(id, viewer: viewer, mutation: "declineFollowRequest", clientMutationID: clientMutationID, recording: .followDeclined) {
            owner, _ in
            try owner.execute("DELETE FROM follows WHERE id = ? AND followed_id = {owner} AND status = 'requested'", [id])
        }
        return id
    }

    /// Stops `viewer` following someone, or withdraws their request: at once they see nothing more
    /// of that user's habits and events (the next read answers without them).
    /// - Returns: The follow's id (also on a replay).
    /// - Throws: `NOT_FOUND` for a follow (or request) that is not `viewer`'s own; `CONFLICT` for a
    ///   reused `clientMutationID`.
    public func unfollow(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await change(id, viewer: viewer, mutation: "unfollow", clientMutationID: clientMutationID, recording: .followCancelled) { owner, _ in
            try owner.execute("DELETE FROM follows WHERE id = ? AND follower_id = {owner}", [id])
        }
        return id
    }

    /// Removes one of `viewer`'s followers: at once they see nothing more of `viewer`'s habits and
    /// events. They may ask again later (decline that, or keep removing).
    /// - Returns: The follow's id (also on a replay).
    /// - Throws: `NOT_FOUND` for a follow that is not an accepted one of `viewer`'s followers
    ///   (decline a request instead); `CONFLICT` for a reused `clientMutationID`.
    public func removeFollower(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await change(id, viewer: viewer, mutation: "removeFollower", clientMutationID: clientMutationID, recording: .followRemoved) {
            owner, _ in
            try owner.execute("DELETE FROM follows WHERE id = ? AND followed_id = {owner} AND status = 'accepted'", [id])
        }
        return id
    }

    /// Runs `statement` (an update or, when `deleting`, a delete of follow `id` through the viewer's
    /// scope, with its own condition on who may make it) and records `kind` on both users' topics; a
    /// delete leaves a tombstone both users see (``Tombstones``).
    /// - Throws: `NOT_FOUND` when the statement changed nothing (reason `DELETED` for a follow
    ///   deleted already).
    private func change(
        _ id: String, viewer: Viewer, mutation: String, clientMutationID: String?, recording kind: EventKind, deleting: Bool = true,
        _ statement: @escaping @Sendable (OwnerScope, Date) throws -> Void
    ) async throws {
        guard GlobalID.mayName(.follow, id) else { throw ServiceError.followNotFound }
        _ = try await mutate(mutation, by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let owner = OwnerScope(Owner(viewer), database)
            guard let row = try owner.queryOne(
                "SELECT follower_id, followed_id, status FROM follows WHERE id = ? AND {owner} IN (follower_id, followed_id)", [id])
            else { throw ServiceError.followNotFound }
            try statement(owner, now)
            guard database.changedRowCount == 1 else { throw ServiceError.followNotFound }
            let change = FollowChange(followID: id, followerID: try row["follower_id"], followedID: try row["followed_id"])
            if deleting {
                try Tombstones.record([id], .follow, scope: .user(change.followerID), accounts: [id: change.followedID], at: now, in: database)
            }
            try record(kind, change, in: database)
            try recordSyncScope(kind, change, wasAccepted: (try row["status"] as String) == FollowStatus.accepted.rawValue, in: database)
            return FollowReference(followID: id)
        }
    }
}

extension ServiceError {
    /// No account has the username asked for.
    public static let userNotFound = ServiceError(.notFound, "No user has this username.")
}
