import FoundationEssentials
import HearthDomain
import HearthStore

/// Makes notices and withdraws them, inside the caller's write transaction: each notice is a
/// `notifications` row of its user, made once per (user, dedupe key) however often the work that
/// makes it runs (an insert that does nothing on conflict), then handed to the channels the user
/// chose (``NotificationChannels``). Withdrawing (a claim by someone else, FR-52) marks the user's
/// open notices about an instance dismissed and tells the same channels.
public struct Notifier: Sendable {
    /// Where notices are delivered.
    public let channels: NotificationChannels

    /// A notifier delivering on `channels`.
    public init(channels: NotificationChannels) {
        self.channels = channels
    }

    /// What a new notice says, before it has an id and a user.
    struct Draft {
        var kind: NoticeKind
        var title: String
        var body: String
        var dueAt: Date?
        var householdID: String?
        var choreID: String?
        var instanceID: String?
        var habitID: String?
    }

    /// What held a reminder back, for its record: delivered later than `originalTime`, or skipped.
    struct Holdback {
        /// What held it back last.
        var cause: ReminderDeferral.Cause
        /// When it was planned to fire.
        var originalTime: Date
        /// Whether it is delivered now (late) rather than skipped.
        var isDelivered: Bool
    }

    /// Records `draft` for `owner`'s account unless a notice with `dedupeKey` exists for them, and
    /// delivers it on their chosen channels unless `heldBack` says it is skipped.
    /// - Returns: The new notice, or `nil` when it existed already.
    @discardableResult
    func notify(_ draft: Draft, dedupeKey: String, heldBack: Holdback? = nil, _ owner: OwnerScope, at now: Date) throws -> Notice? {
        let id = GlobalID.make(.notification, now: now).rawValue
        let tag = Notice.tag(for: draft.instanceID ?? draft.choreID ?? draft.habitID ?? id)
        let skipped = heldBack.flatMap { $0.isDelivered ? nil : $0.cause }
        let delayed = heldBack.flatMap { $0.isDelivered ? $0.cause : nil }
        try owner.execute(
            """
            INSERT INTO notifications (
                id, user_id, household_id, kind, title, body, chore_id, instance_id, habit_id, due_at, tag, dedupe_key, skipped_reason,
                delay_reason, original_time, created_at)
            VALUES (?, {owner}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, dedupe_key) DO NOTHING
            """,
            [id, draft.householdID, draft.kind.rawValue, draft.title, draft.body, draft.choreID, draft.instanceID, draft.habitID, draft.dueAt, tag,
             dedupeKey, skipped?.rawValue, delayed?.rawValue, heldBack?.originalTime, now])
        guard owner.changedRowCount == 1 else { return nil }
        let notice = Notice(
            id: id, userID: owner.key.userID, kind: draft.kind, title: draft.title, body: draft.body, dueAt: draft.dueAt,
            householdID: draft.householdID, choreID: draft.choreID, instanceID: draft.instanceID, habitID: draft.habitID, tag: tag, createdAt: now)
        if skipped == nil {
            for channel in channels.chosen(try NotificationPreferences.read(owner).channels) { try channel.deliver(notice, in: owner.database) }
        }
        return notice
    }

    /// Dismisses `owner`'s delivered, open notices about `instanceID` and withdraws them from
    /// their channels.
    /// - Returns: The notices withdrawn.
    @discardableResult
    func withdraw(instanceID: String, _ owner: OwnerScope, at now: Date) throws -> [Notice] {
        try withdraw(where: "instance_id = ?", [instanceID], owner, at: now)
    }

    /// Dismisses `owner`'s delivered, open notices about instances of household `householdID`
    /// (they stopped being responsible for it: FR-11) and withdraws them from their channels.
    /// - Returns: The notices withdrawn.
    @discardableResult
    func withdraw(householdID: String, _ owner: OwnerScope, at now: Date) throws -> [Notice] {
        try withdraw(where: "household_id = ? AND instance_id IS NOT NULL", [householdID], owner, at: now)
    }

    /// Dismisses `owner`'s delivered, open notices that `condition` (with `arguments`) selects and
    /// withdraws them from their chosen channels.
    private func withdraw(where condition: String, _ arguments: [String], _ owner: OwnerScope, at now: Date) throws -> [Notice] {
        let notices = try owner.query(
            """
            UPDATE notifications SET dismissed_at = ?
            WHERE user_id = {owner} AND \(condition) AND dismissed_at IS NULL AND skipped_reason IS NULL
            RETURNING \(NotificationRecord.columns)
            """,
            StatementArguments([now as (any DatabaseValueConvertible)?] + arguments.map { $0 as (any DatabaseValueConvertible)? })
        ).map { try NotificationRecord(row: $0).notice }
        guard !notices.isEmpty else { return [] }
        let chosen = channels.chosen(try NotificationPreferences.read(owner).channels)
        for notice in notices {
            for channel in chosen { try channel.withdraw(notice, in: owner.database) }
        }
        return notices
    }
}
