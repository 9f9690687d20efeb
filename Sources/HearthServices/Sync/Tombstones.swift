import FoundationEssentials
import HearthDomain
import HearthStore

/// What a delete leaves behind: one `tombstones` row per deleted object a client may hold
/// (households, members, chores, tags, presets, rewards, parental consents, habits, habit events,
/// follows, availability events, imported calendars), written by the deleting transaction, cascaded deletes included, with the change-log
/// topic the object was visible in (its scope).
///
/// Deletes win over edits: a change of a tombstoned object answers `NOT_FOUND` with reason
/// `DELETED` to whoever could see it (``refine(_:target:viewer:in:)``), so a phone replaying its
/// queue drops the edit; anyone else gets the plain `NOT_FOUND` (existence does not leak). A
/// create never makes a tombstoned id again (``ClientIDs``). The change feed reads the same rows to
/// tell clients an id is gone. Tombstones are pruned after the change log's horizon
/// (`--retain-tombstones`).
enum Tombstones {
    /// The answer to a change of an object that was deleted, for those who could see it.
    static let deleted = ServiceError(
        .notFound, reason: .deleted, "This was deleted, on this device or another: drop the change and remove it from your copy.")

    /// Records the deletion of `ids`, objects of `kind` visible in `scope`, at `now`; an id
    /// already tombstoned stays as it was.
    /// - Parameter accounts: The other account that saw each object, by id: for a member, the
    ///   account it stood for (the people of a deleted household still learn its objects were
    ///   deleted); for a follow, the followed user.
    static func record(
        _ ids: [String], _ kind: GlobalID.Kind, scope: Topic, accounts: [String: String] = [:], at now: Date, in database: Database
    ) throws {
        for id in ids {
            try database.execute(
                "INSERT INTO tombstones (id, kind, scope, account_id, deleted_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                [id, kind.rawValue, scope.key, accounts[id], now])
        }
    }

    /// Whether `id` names a deleted object.
    static func isDeleted(_ id: String, _ database: Database) throws -> Bool {
        try database.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM tombstones WHERE id = ?)", [id]) ?? false
    }

    /// Whether `id` names a deleted object the owner could see: one of their own (or a follow of
    /// theirs, either side), or of a household they were in (a member then, or one whose deletion took their membership). A
    /// chore instance counts as deleted with its chore (instances have no tombstones of their own).
    static func isDeleted(_ id: String, visibleTo owner: OwnerScope) throws -> Bool {
        try owner.scalar(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM tombstones t WHERE (t.id = ? OR t.id IN (SELECT chore_id FROM chore_instances WHERE id = ?)) AND (
                t.scope = 'user:' || {owner} OR t.account_id = {owner}
                OR EXISTS (SELECT 1 FROM members m WHERE m.user_id = {owner} AND t.scope = 'household:' || m.household_id)
                OR EXISTS (SELECT 1 FROM tombstones gone WHERE gone.kind = 'mem' AND gone.account_id = {owner} AND gone.scope = t.scope)))
            """,
            [id, id]) ?? false
    }

    /// `error` as the viewer should see it when a change of `target` failed with it: `DELETED`
    /// for a plain `NOT_FOUND` of an object the viewer could see and that was deleted, `error`
    /// otherwise.
    static func refine(_ error: any Error, target: String?, viewer: Viewer, in pool: any DatabaseWriter) async -> any Error {
        guard let target, let refused = error as? ServiceError, refused.code == .notFound, refused.reason == nil else { return error }
        let deleted = (try? await pool.read { database in try isDeleted(target, visibleTo: OwnerScope(Owner(viewer), database)) }) ?? false
        return deleted ? Self.deleted : error
    }

    /// A mutation's answer, `read` after its commit of the object `target` it changed, with a
    /// `NOT_FOUND` refined as ``refine(_:target:viewer:in:)`` does: a replay answers the object
    /// it stored the id of, which may have been deleted since (later in the same queue, or by
    /// another device), and deletes win there too.
    static func answer<Answer>(
        about target: String, viewer: Viewer, in pool: any DatabaseWriter, _ read: () async throws -> Answer
    ) async throws -> Answer {
        do {
            return try await read()
        } catch {
            throw await refine(error, target: target, viewer: viewer, in: pool)
        }
    }
}
