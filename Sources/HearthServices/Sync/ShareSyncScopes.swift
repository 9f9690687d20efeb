import HearthStore

extension EventKind {
    /// A change of a personal chore, of one of its instances or completions, recorded once more on
    /// the topic of each share covering the chore (``ShareSyncScopes``), for its recipients' offline
    /// sync; the row touches what the owner's row touched (``SharedChoreChange``).
    public static let syncSharedChoreChanged: EventKind = "sync.shared_chore_changed"
}

/// The payload of ``EventKind/syncSharedChoreChanged``: the share, the chore, and the kind of the
/// owner's change it repeats.
public struct SharedChoreChange: Codable, Sendable, Equatable {
    /// The share whose topic the row is on.
    public var shareID: String
    /// The chore concerned; `nil` for a tag renamed (the row touches the share of the tag).
    public var choreID: String?
    /// The kind of the change on the owner's topic (`chore.updated`, `chore_instance.completed`, …).
    public var kind: String
}

/// Offline sync's scopes of shared personal chores (FR-40 – FR-42): `share:<id>`, read by every
/// account the share reaches (the rule is ``ChoreShares``), never by its owner, who reads their own
/// topic. A share's scope holds the share, the chores it covers (not deleted), their instances and
/// completions (``SyncScopes/objects(in:after:limit:in:)``).
///
/// - **Changes.** Every change of a personal chore, its instances and completions is recorded on
///   the owner's topic; a reaction (``register(on:)``) records it once more, as
///   ``EventKind/syncSharedChoreChanged`` touching the same objects, on the topic of each share
///   covering the chore then (a deleted chore's deletion too, touching the chore, its instances
///   and completions: a recipient's tombstones). An edit that changes which shares cover a chore
///   (its tags, for tag shares) records, on each share gained or lost, the chore with its instances
///   and completions (``recordCoverageChange(ofChore:before:_:in:)``): upserts for the new
///   recipients, tombstones for the former ones. A tag renamed is recorded on each share of the
///   tag, which shows its name (a shared chore's tags are not shown to recipients).
/// - **Reach.** An account starts or stops reading a share's scope with a `sync.scope_gained` or
///   `sync.scope_lost` row on its own topic (``SyncScopeChange``), as for households and follows:
///   a share with a household made, an account's share accepted (``recordReach(_:share:_:in:)``);
///   an accepted share declined, or ended: revoked, deleted with its tag or its household
///   (``ChoreService/recordEnd(ofSharesWhere:_:_:at:in:)``, before the share goes, so the loss
///   lists its objects); members joining or leaving the share's household, its owner included
///   (reactions).
enum ShareSyncScopes {
    /// The changes a share's recipients see: of a personal chore, its instances and completions.
    static let choreKinds: Set<EventKind> = [
        .choreCreated, .choreUpdated, .choreDeleted, .choreInstancesPlanned, .choreInstanceCreated, .choreInstanceChanged,
        .choreInstanceCancelled, .choreInstanceRemoved, .choreInstanceOffered, .choreInstanceClaimed, .choreInstanceReleased,
        .choreCompleted, .choreCompletionUndone, .choreCompletionApproved, .choreCompletionRejected,
    ]

    /// A subquery of the chores (not deleted) the share bound to its `?` covers now.
    static let coveredChores = """
        SELECT c.id FROM chore_shares s JOIN chores c ON c.user_id = s.user_id WHERE s.id = ? AND c.deleted_at IS NULL AND \(ChoreShares.coversChore)
        """

    /// Registers the reactions recording the changes of shared chores on their shares' topics, and
    /// the share scopes household members gain and lose as they join and leave.
    static func register(on changeLog: ChangeLog) {
        changeLog.reactions.register(choreKinds) { event, database in
            try repeatOnShares(event, changeLog, in: database)
        }
        changeLog.reactions.register([.tagUpdated]) { event, database in
            try repeatTagChangeOnShares(event, changeLog, in: database)
        }
        // Read after the change: the pairs reached through the member now (joined), or that did
        // until now (left, removed: the member is no longer active).
        changeLog.reactions.register([.memberJoined, .memberLeft, .memberRemoved]) { event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard let userID = change.userID else { return }
            let kind: EventKind = event.kind == .memberJoined ? .syncScopeGained : .syncScopeLost
            for (shareID, recipientID) in try pairs(through: userID, in: change.householdID, database) {
                try SyncScopeChange.record(kind, scope: .share(shareID), for: recipientID, changeLog, in: database)
            }
        }
    }

    /// Records that every account share `shareID` reaches now gained (``EventKind/syncScopeGained``)
    /// or lost (``EventKind/syncScopeLost``) its scope, in the caller's transaction: after the share
    /// starts reaching them, before it stops (the loss lists the scope's objects).
    static func recordReach(_ kind: EventKind, share shareID: String, _ changeLog: ChangeLog, in database: Database) throws {
        for userID in try recipients(of: shareID, in: database) {
            try SyncScopeChange.record(kind, scope: .share(shareID), for: userID, changeLog, in: database)
        }
    }

    /// The shares covering chore `choreID` now (a deleted chore's too), in id order.
    static func covering(choreID: String, in database: Database) throws -> [String] {
        try database.query(
            "SELECT s.id FROM chore_shares s JOIN chores c ON c.user_id = s.user_id WHERE c.id = ? AND \(ChoreShares.coversChore) ORDER BY s.id",
            [choreID]
        ).map { try $0["id"] }
    }

    /// After an edit of chore `choreID`, which was covered by the shares `before`: records the
    /// chore, its instances and completions on each share that covers it now and did not, or
    /// did and no longer does; `scope` is the chore's, in the edit's transaction.
    static func recordCoverageChange(ofChore choreID: String, before: [String], _ scope: ChoreScope, _ changeLog: ChangeLog) throws {
        let database = scope.database
        let changed = Set(before).symmetricDifference(try covering(choreID: choreID, in: database))
        guard !changed.isEmpty else { return }
        let content = [choreID] + (try scope.history(ofChore: choreID))
        for shareID in changed.sorted() {
            try record(.choreUpdated, choreID: choreID, on: shareID, touching: content, changeLog, in: database)
        }
    }

    /// Records `event`, a change on its owner's topic of a personal chore, once more on the topic
    /// of each share covering the chore, touching what it touched (a deletion: the chore's instances and
    /// completions too, as `deleteChore` names them).
    private static func repeatOnShares(_ event: Event, _ changeLog: ChangeLog, in database: Database) throws {
        guard event.topic.key.hasPrefix("user:") else { return }
        let subject = try event.payload.decode(ChoreSubject.self)
        guard subject.householdID == nil, let choreID = subject.choreID else { return }
        let shares = try covering(choreID: choreID, in: database)
        guard !shares.isEmpty else { return }
        for shareID in shares {
            try record(event.kind, choreID: choreID, on: shareID, touching: event.objects, changeLog, in: database)
        }
    }

    /// Records `event`, a personal tag's change on its owner's topic, on the topic of each share of
    /// the tag, touching the share, which shows the tag's name (a shared chore's tags are not shown).
    private static func repeatTagChangeOnShares(_ event: Event, _ changeLog: ChangeLog, in database: Database) throws {
        guard event.topic.key.hasPrefix("user:"), let tagID = try event.payload.decode(ChoreSubject.self).tagID else { return }
        for row in try database.query("SELECT id FROM chore_shares WHERE tag_id = ? ORDER BY id", [tagID]) {
            let shareID: String = try row["id"]
            try record(event.kind, choreID: nil, on: shareID, touching: [shareID], changeLog, in: database)
        }
    }

    /// Records a change of kind `kind` of chore `choreID` on share `shareID`'s topic, touching `ids`.
    private static func record(
        _ kind: EventKind, choreID: String?, on shareID: String, touching ids: [String], _ changeLog: ChangeLog, in database: Database
    ) throws {
        try changeLog.record(
            topic: .share(shareID), kind: .syncSharedChoreChanged,
            payload: SharedChoreChange(shareID: shareID, choreID: choreID, kind: kind.rawValue), touching: ids, in: database)
    }

    /// The accounts share `shareID` reaches now, in order: of its recipient and its household's
    /// active members, those ``ChoreShares/reachesViewer`` admits.
    private static func recipients(of shareID: String, in database: Database) throws -> [String] {
        let candidates: [String] = try database.query(
            """
            SELECT recipient_user_id AS user_id FROM chore_shares WHERE id = ? AND recipient_user_id IS NOT NULL
            UNION SELECT m.user_id FROM chore_shares s JOIN members m ON m.household_id = s.recipient_household_id
            WHERE s.id = ? AND m.status = 'active' AND m.user_id IS NOT NULL
            ORDER BY 1
            """,
            [shareID, shareID]
        ).map { try $0["user_id"] }
        return try candidates.filter { userID in
            try OwnerScope(Owner(shareRecipient: userID), database).scalar(
                Bool.self,
                "SELECT EXISTS (SELECT 1 FROM chore_shares s WHERE s.id = ? AND s.user_id <> {owner} AND \(ChoreShares.reachesViewer))",
                [shareID]) ?? false
        }
    }

    /// The (share, account) pairs of the shares with household `householdID` that reach through
    /// `userID`'s membership, read as the memberships are now (``ChoreShares``: a household's
    /// share reaches its active members while its owner is one): each share of `userID`'s with each
    /// other active member, and each other member's share (its owner active) with `userID`. Read
    /// after `userID` joins, these are the scopes gained; after they leave, those lost.
    private static func pairs(through userID: String, in householdID: String, _ database: Database) throws -> [(String, String)] {
        try database.query(
            """
            SELECT s.id AS share_id, m.user_id FROM chore_shares s JOIN members m ON m.household_id = s.recipient_household_id
            WHERE s.recipient_household_id = ? AND s.status = 'accepted' AND s.user_id = ?
                AND m.status = 'active' AND m.user_id IS NOT NULL AND m.user_id <> s.user_id
            UNION SELECT s.id, ? FROM chore_shares s
            WHERE s.recipient_household_id = ? AND s.status = 'accepted' AND s.user_id <> ? AND EXISTS (
                SELECT 1 FROM members o WHERE o.household_id = s.recipient_household_id AND o.user_id = s.user_id AND o.status = 'active')
            ORDER BY 1, 2
            """,
            [householdID, userID, userID, householdID, userID]
        ).map { (try $0["share_id"], try $0["user_id"]) }
    }

    /// What the sharing reactions read of a chore event's payload (``ChoreChange``,
    /// ``ChoreInstanceChange``, ``ChoreCompletionChange`` all carry it): whose chore, and which
    /// chore or tag.
    private struct ChoreSubject: Decodable {
        var householdID: String?
        var choreID: String?
        var tagID: String?
    }
}
