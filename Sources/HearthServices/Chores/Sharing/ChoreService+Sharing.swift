import FoundationEssentials
import HearthDomain
import HearthStore

/// What ``ChoreService/shareChores(_:viewer:clientMutationID:)`` is given.
public struct NewChoreShare: Sendable {
    /// What to share.
    public enum Selection: Sendable {
        /// These personal chores of the owner's.
        case chores([String])
        /// Every personal chore of the owner's carrying this tag of theirs, now and later.
        case tag(String)
    }

    /// With whom.
    public enum Recipient: Sendable {
        /// The account whose confirmed address this is, once it accepts.
        case email(String)
        /// Every active member of this household of the owner's.
        case household(String)
    }

    /// What to share.
    public var selection: Selection
    /// With whom.
    public var recipient: Recipient

    /// Creates the request.
    public init(selection: Selection, recipient: Recipient) {
        self.selection = selection
        self.recipient = recipient
    }
}

/// Sharing personal chores (FR-40 – FR-42), read-only (the rule: ``ChoreShares``).
///
/// **With an account, by email address.** A share is addressed to an address, never to an
/// account looked up by it: the owner gets the same answer whether or not an account uses the
/// address, so sharing reveals nothing the accounts area does not. The account whose *confirmed*
/// address it is sees it among its pending shares and accepts it (then it is bound to that
/// account, whatever its address becomes) or declines it; until then nobody sees the chores.
/// No mail is sent. **With a household** the owner is an active member of: accepted when made, it
/// reaches whoever is an active member (joining later included) while the owner is one too.
///
/// Recipients read the shared chores, their instances and completions through a shared
/// ``ChoreAccess``; every write is refused (`SHARED_READ_ONLY`). `revokeShare` deletes the share:
/// the next read finds nothing, and `sharedChoreEvents` streams of it end at the revocation event.
extension ChoreService {
    /// Shares personal chores of `viewer`'s (FR-40, FR-41) and returns the share.
    /// - Throws: `BAD_USER_INPUT` (`input.selection.choreIds` empty, `REQUIRED`, or over the
    ///   chores-per-share limit, `TOO_LONG`; `input.recipient.email` malformed, or `NOT_ALLOWED` for
    ///   the viewer's own address); `NOT_FOUND` naming the chore or tag that is not one of the
    ///   viewer's personal ones, or for a household they are not in; `CONFLICT` with reason
    ///   `LIMIT_REACHED` at the shares-per-owner limit, or for a reused `clientMutationID`.
    public func shareChores(_ request: NewChoreShare, viewer: Viewer, clientMutationID: String? = nil) async throws -> ChoreShareRecord {
        var problems = ProblemCollector()
        if case .chores(let ids) = request.selection {
            if ids.isEmpty {
                problems.add(FieldProblem(field: "input.selection.choreIds", reason: .required, message: "Choose at least one chore to share."))
            } else if ids.count > configuration.maximumChoresPerShare {
                problems.add(FieldProblem(
                    field: "input.selection.choreIds", reason: .tooLong,
                    message: "Share at most \(configuration.maximumChoresPerShare) chores at once, or share them by tag."))
            }
        }
        var email: EmailAddress?
        if case .email(let text) = request.recipient {
            email = problems.check { () throws(FieldProblem) in try EmailAddress(text, field: "input.recipient.email") }
        }
        try problems.throwIfAny()
        let limit = configuration.maximumSharesPerOwner
        let created = try await mutate("shareChores", by: viewer, replaying: clientMutationID) { [self, email] database, now in
            let scope = ChoreAccess(personal: Owner(viewer)).scope(database)
            let owner = OwnerScope(Owner(viewer), database)
            var (tagID, choreIDs): (String?, [String]) = (nil, [])
            switch request.selection {
            case .chores(let ids):
                try ChoreReferences.checkOwned(ids, .chores, scope, field: "input.selection.choreIds")
                choreIDs = Array(Set(ids)).sorted()
            case .tag(let id):
                try ChoreReferences.checkOwned([id], .tags, scope, field: "input.selection.tagId", indexed: false)
                tagID = id
            }
            var householdID: String?
            if case .household(let id) = request.recipient {
                householdID = try HouseholdAccess.check(viewer: viewer, householdID: id, in: database).householdID
            }
            if let email, try owner.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM users WHERE id = {owner} AND email_key = ?)", [email.key]) == true {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.recipient.email", reason: .notAllowed, message: "This is your own address: your chores are yours already.")]))
            }
            let count = try owner.scalar(Int.self, "SELECT count(*) FROM chore_shares WHERE user_id = {owner}") ?? 0
            guard count < limit else {
                throw ServiceError(.conflict, reason: .limitReached, "You have \(count) shares, the most allowed. Revoke one first.")
            }
            let id = GlobalID.make(.choreShare, now: now).rawValue
            try owner.execute(
                """
                INSERT INTO chore_shares (id, user_id, tag_id, recipient_email, recipient_email_key, recipient_household_id, status, created_at, answered_at)
                VALUES (?, {owner}, ?, ?, ?, ?, ?, ?, ?)
                """,
                [id, tagID, email?.value, email?.key, householdID, householdID == nil ? "pending" : "accepted", now, householdID == nil ? nil : now])
            for choreID in choreIDs {
                try owner.execute("INSERT INTO chore_share_chores (share_id, chore_id, user_id) VALUES (?, ?, {owner})", [id, choreID])
            }
            try recordShare(.choreShareCreated, ChoreShareChange(shareID: id, userID: viewer.userID, householdID: householdID), in: database)
            // A household's share reaches its members at once; an account's once accepted.
            try ShareSyncScopes.recordReach(.syncScopeGained, share: id, households.changeLog, in: database)
            return ShareReference(shareID: id)
        }
        return try await share(id: created.shareID, viewer: viewer)
    }

    /// Accepts a share addressed to `viewer`'s confirmed address (FR-40): its chores become
    /// visible to them, read-only.
    /// - Throws: `NOT_FOUND` for a share that is not pending for them (unknown, another's, answered
    ///   already, or their address is not confirmed: the same answer); `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func acceptShare(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> ChoreShareRecord {
        try await answerShare(
            id: id, viewer: viewer, mutation: "acceptShare", clientMutationID: clientMutationID, reach: .syncScopeGained
        ) { owner, now in
            try owner.execute(
                "UPDATE chore_shares SET status = 'accepted', recipient_user_id = {owner}, answered_at = ? WHERE id = ? AND \(Self.pendingForViewer)",
                [now, id])
        }
        return try await share(id: id, viewer: viewer)
    }

    /// Declines a share pending for `viewer`, or stops following one they accepted: its chores are
    /// no longer visible to them. The owner sees it declined and may revoke it.
    /// - Throws: As ``acceptShare(id:viewer:clientMutationID:)`` (also for a household's share:
    ///   leaving the household is how a member stops seeing it).
    public func declineShare(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await answerShare(
            id: id, viewer: viewer, mutation: "declineShare", clientMutationID: clientMutationID, reach: .syncScopeLost
        ) { owner, now in
            try owner.execute(
                """
                UPDATE chore_shares SET status = 'declined', recipient_user_id = NULL, answered_at = ?
                WHERE id = ? AND (recipient_user_id = {owner} OR \(Self.pendingForViewer))
                """,
                [now, id])
        }
        return id
    }

    /// Runs `answer` (an update of share `id` through the viewer's scope) and records the answer
    /// on the owner's topic, and for offline sync the share's scope the viewer gains (`reach`
    /// ``EventKind/syncScopeGained``, after the answer) or loses (``EventKind/syncScopeLost``,
    /// before it, while the share reaches them and lists its objects; nothing for a pending share).
    private func answerShare(
        id: String, viewer: Viewer, mutation: String, clientMutationID: String?, reach: EventKind,
        _ answer: @escaping @Sendable (OwnerScope, Date) throws -> Void
    ) async throws {
        guard GlobalID.mayName(.choreShare, id) else { throw ServiceError.shareNotFound }
        _ = try await mutate(mutation, by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let owner = OwnerScope(Owner(viewer), database)
            // Whose share it is, when it is one the viewer may answer (the answer's own condition decides which).
            guard let ownerID = try owner.scalar(
                String.self, "SELECT user_id FROM chore_shares WHERE id = ? AND (recipient_user_id = {owner} OR \(Self.pendingForViewer))", [id])
            else { throw ServiceError.shareNotFound }
            if reach == .syncScopeLost { try ShareSyncScopes.recordReach(reach, share: id, households.changeLog, in: database) }
            try answer(owner, now)
            guard database.changedRowCount == 1 else { throw ServiceError.shareNotFound }
            if reach == .syncScopeGained { try ShareSyncScopes.recordReach(reach, share: id, households.changeLog, in: database) }
            try recordShare(.choreShareAnswered, ChoreShareChange(shareID: id, userID: ownerID), in: database)
            return ShareReference(shareID: id)
        }
    }

    /// Revokes a share of `viewer`'s (FR-42): deleted at once, its recipients see its chores no
    /// more, and their `sharedChoreEvents` streams of it end. It leaves a tombstone its owner and
    /// its recipient see (``recordEnd(ofSharesWhere:_:_:at:in:)``).
    /// - Returns: The share's id (also on a replay).
    /// - Throws: `NOT_FOUND` for a share that is not theirs (reason `DELETED` for one revoked
    ///   already); `CONFLICT` for a reused `clientMutationID`.
    public func revokeShare(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        guard GlobalID.mayName(.choreShare, id) else { throw ServiceError.shareNotFound }
        return try await mutate("revokeShare", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let owner = OwnerScope(Owner(viewer), database)
            guard try owner.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM chore_shares WHERE id = ? AND user_id = {owner})", [id]) == true else {
                throw ServiceError.shareNotFound
            }
            try Self.recordEnd(ofSharesWhere: "id = ?", id, households.changeLog, at: now, in: database)
            try owner.execute("DELETE FROM chore_shares WHERE id = ? AND user_id = {owner}", [id])
            return ShareReference(shareID: id)
        }.shareID
    }

    /// Records the end of the shares meeting `condition` (on `chore_shares`, its `?` bound to
    /// `argument`) in the caller's transaction, before they are deleted: revoked, or with their tag
    /// or their household. Each leaves a tombstone its owner and its recipient see (``Tombstones``),
    /// is lost by the accounts it reaches (their sync scope, listing what it showed:
    /// ``ShareSyncScopes``), and `chore_share.revoked` is recorded on its owner's topic, where
    /// subscriptions to it end and the owner's devices learn it is gone.
    static func recordEnd(ofSharesWhere condition: String, _ argument: String, _ changeLog: ChangeLog, at now: Date, in database: Database) throws {
        let shares = try database.query(
            "SELECT id, user_id, recipient_user_id, recipient_household_id FROM chore_shares WHERE \(condition) ORDER BY id", [argument])
        for row in shares {
            let id: String = try row["id"], ownerID: String = try row["user_id"], recipient: String? = try row["recipient_user_id"]
            try Tombstones.record([id], .choreShare, scope: .user(ownerID), accounts: recipient.map { [id: $0] } ?? [:], at: now, in: database)
            try ShareSyncScopes.recordReach(.syncScopeLost, share: id, changeLog, in: database)
            try changeLog.record(
                topic: .user(ownerID), kind: .choreShareRevoked,
                payload: ChoreShareChange(shareID: id, userID: ownerID, householdID: try row["recipient_household_id"]), in: database)
        }
    }

    /// Records a share event on its owner's topic, where their personal chores' events are.
    private func recordShare(_ kind: EventKind, _ change: ChoreShareChange, in database: Database) throws {
        try households.changeLog.record(topic: .user(change.userID), kind: kind, payload: change, in: database)
    }

    /// A condition on a share (unaliased): pending, and addressed to the confirmed address of the
    /// viewer `{owner}`.
    static let pendingForViewer = """
        status = 'pending' AND recipient_email_key = (SELECT u.email_key FROM users u WHERE u.id = {owner} AND u.email_confirmed_at IS NOT NULL)
        """
}

/// The share a mutation's result names, as ``MutationReplay`` stores it.
struct ShareReference: Codable {
    var shareID: String
}

extension ServiceError {
    /// A share that does not exist or is not the caller's to see or answer.
    public static let shareNotFound = ServiceError(.notFound, "No such share.")
}
