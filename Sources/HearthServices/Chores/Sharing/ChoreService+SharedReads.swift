import FoundationEssentials
import HearthDomain
import HearthStore

/// Reading shares and what they share (FR-40 – FR-42).
extension ChoreService {
    /// Which shares a list of shares holds.
    public enum ShareList: Sendable {
        /// The viewer's own shares (the owner's list).
        case made
        /// Shares of others reaching the viewer: accepted ones with them, and those with their
        /// households (`sharedWithMe`).
        case received
        /// Shares waiting for the viewer's answer, addressed to their confirmed address.
        case pending
    }

    /// Share `id` when `viewer` may see it: their own, one reaching them, or one pending for them.
    /// - Throws: `NOT_FOUND` otherwise (unknown, malformed, declined or revoked, alike).
    public func share(id: String, viewer: Viewer) async throws -> ChoreShareRecord {
        guard GlobalID.mayName(.choreShare, id) else { throw ServiceError.shareNotFound }
        return try await pool.readPreferringCallingThread { database in
            guard let share = try Self.shares(ids: [id], viewer: viewer, in: database).first else { throw ServiceError.shareNotFound }
            return share
        }
    }

    /// The shares among `ids` that `viewer` may see (as ``share(id:viewer:)``).
    static func shares(ids: [String], viewer: Viewer, in database: Database) throws -> [ChoreShareRecord] {
        let ids = ids.filter { GlobalID.mayName(.choreShare, $0) }
        guard !ids.isEmpty else { return [] }
        return try shares(where: "s.id IN (\(ChoreReferences.placeholders(ids.count)))", ids, viewer: viewer, in: database)
    }

    /// The shares meeting `condition` (on `s`, with `arguments`; `{owner}` is the viewer) among
    /// those `viewer` may see at all: their own, those reaching them, those pending for them;
    /// `suffix` (with its arguments at the end of `arguments`) orders and limits them.
    private static func shares(
        where condition: String, _ arguments: [(any DatabaseValueConvertible)?], suffix: String = "", viewer: Viewer, in database: Database
    ) throws -> [ChoreShareRecord] {
        try OwnerScope(Owner(viewer), database).query(
            """
            SELECT \(ChoreShareRecord.columns) FROM chore_shares s JOIN users o ON o.id = s.user_id
                LEFT JOIN tags t ON t.id = s.tag_id LEFT JOIN users r ON r.id = s.recipient_user_id
            WHERE \(condition) AND (s.user_id = {owner} OR \(ChoreShares.reachesViewer) OR \(pendingForViewer))\(suffix)
            """,
            StatementArguments(arguments)
        ).map(ChoreShareRecord.init(row:))
    }

    /// A page of the shares `list` names for `viewer`, newest first: the first `first` (at most
    /// 100, 100 when `nil`) after `after`.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func shares(_ list: ShareList, viewer: Viewer, first: Int? = nil, after: String? = nil) async throws -> InstancePage<ChoreShareRecord> {
        let (size, cursor) = try InstanceCursor.page(first: first, after: after, kind: .choreShare, maximum: InstancePage<ChoreShareRecord>.maximumSize)
        let condition = switch list {
        case .made: "s.user_id = {owner}"
        case .received: "s.user_id <> {owner} AND \(ChoreShares.reachesViewer)"
        case .pending: "s.user_id <> {owner} AND \(Self.pendingForViewer)"
        }
        let (after, arguments) = InstanceCursor.older(than: cursor, columns: "s.created_at, s.id")
        return try await pool.readPreferringCallingThread { database in
            let shares = try Self.shares(
                where: condition + after, arguments + [size + 1], suffix: " ORDER BY s.created_at DESC, s.id DESC LIMIT ?", viewer: viewer, in: database)
            return InstancePage(reading: shares, size: size, after: cursor) { InstanceCursor(time: $0.createdAt, id: $0.id) }
        }
    }

    /// A page of the chores share `shareID` shares now, by title, read-only for a recipient
    /// (the owner reads their own): for a tag share, the owner's personal chores carrying the tag
    /// at this moment. Empty while the share waits for the viewer's answer.
    /// - Throws: `NOT_FOUND` for a share the viewer may not see; `BAD_USER_INPUT` as ``chores(householdID:filter:first:after:viewer:)``.
    public func sharedChores(shareID: String, viewer: Viewer, first: Int? = nil, after: String? = nil) async throws -> ChorePage {
        let (size, cursor) = try Self.pageBounds(first: first, after: after)
        guard GlobalID.mayName(.choreShare, shareID) else { throw ServiceError.shareNotFound }
        return try await pool.readPreferringCallingThread { database in
            guard let share = try Self.shares(ids: [shareID], viewer: viewer, in: database).first else { throw ServiceError.shareNotFound }
            let access = share.isOwned(by: viewer)
                ? ChoreAccess(personal: Owner(viewer)) : ChoreAccess(shared: Owner(sharing: share.ownerID), with: viewer)
            guard share.status == .accepted || share.isOwned(by: viewer) else {
                return ChorePage(edges: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0, access: access)
            }
            let (condition, argument) = share.tagID.map { tagID in
                (" AND id IN (SELECT ct.chore_id FROM chore_tags ct WHERE ct.{scope} AND ct.tag_id = ?)", tagID)
            } ?? (" AND id IN (SELECT sc.chore_id FROM chore_share_chores sc WHERE sc.{scope} AND sc.share_id = ?)", shareID)
            return try Self.page(access.scope(database), conditions: condition, [argument], size: size, after: cursor)
        }
    }

    /// Whether chore `choreID` is shared with `viewer` through share `shareID` now (the per-event
    /// check of a subscription to one share); a deleted chore counts when `includingDeleted`.
    public func isShared(choreID: String, through shareID: String, viewer: Viewer, includingDeleted: Bool = false) async throws -> Bool {
        try await pool.readPreferringCallingThread { database in
            try ChoreShares.isShared(choreID: choreID, through: shareID, with: viewer, includingDeleted: includingDeleted, in: database)
        }
    }

    /// Whether share `shareID` reaches `viewer` now (accepted with them, or their household's while
    /// they and its owner are members), with the share; `nil` otherwise.
    public func shareReaching(_ shareID: String, viewer: Viewer) async throws -> ChoreShareRecord? {
        guard GlobalID.mayName(.choreShare, shareID) else { return nil }
        return try await pool.readPreferringCallingThread { database in
            try Self.shares(where: "s.id = ? AND s.user_id <> {owner} AND \(ChoreShares.reachesViewer)", [shareID], viewer: viewer, in: database).first
        }
    }
}
