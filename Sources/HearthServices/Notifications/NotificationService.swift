import FoundationEssentials
import HearthDomain
import HearthStore

/// Reminders and notifications (issue 18: FR-49 – FR-53, FR-50A/B, FR-11, FR-32, FR-33).
///
/// - **Reminders** (FR-49, FR-50): a chore's offsets (set with the chore, ``ChoreFields/reminders``)
///   become `chore.remind` jobs per open instance (``ReminderPlanner``), planned again in the
///   transaction of every change that may move them (the chore created or edited, its instances
///   planned); each job notifies every account the instance concerns when it runs (``ReminderJob``).
/// - **Notices** (``Notifier``): each is a `notifications` row of its user, made once, delivered on
///   the channels they chose (``NotificationChannels``: the live stream, email, push). Besides
///   reminders: a chore assigned to a member (FR-32), a chore they are assigned to edited (FR-33),
///   a claim released (FR-53: the others may claim it again).
/// - **Holding back** (FR-50A, FR-50B, ``ReminderGate``): decided when a reminder fires, for each
///   account: quiet hours, and busy periods of their calendars when they chose to avoid busy times
///   (``BusyTimes``), delay it to the next free instant before the due time or skip it; the notice
///   records which (``NotificationRecord/deliveryOutcome``).
/// - **Habit reminders** (``HabitReminderPlanner``, ``HabitReminderJob``): a habit's reminder time on
///   its planned days, in its owner's time zone, through the same gate and channels.
/// - **Active household** (FR-11, ``ReminderRecipients``, ``HouseholdSwitchNotices``): household
///   chores remind the members whose active household it is; a switch withdraws the old
///   household's open notices and tells the user.
/// - **Withdrawal** (FR-52): when a member claims a shared instance, the other accounts' notices
///   about it are dismissed and withdrawn from their channels, in the claim's transaction.
/// - **Reading** (``notifications(viewer:first:after:)``, ``markNotificationRead(id:viewer:clientMutationID:)``)
///   and **preferences** (``preferences(viewer:)``, ``updateNotificationPreferences(_:viewer:clientMutationID:)``),
///   each through the viewer's ``OwnerScope``.
public final class NotificationService: Sendable {
    /// The households service: the store, the change log, the clock, replay-protected transactions.
    public let households: HouseholdService
    /// The instances service the reminder job reads through.
    let instances: ChoreInstanceService
    /// Makes and withdraws notices.
    public let notifier: Notifier
    /// Delivers, delays or skips each reminder for each account.
    let gate: ReminderGate
    /// Plans habits' reminders.
    let habitReminders: HabitReminderPlanner

    /// Creates the service and registers its reactions on the change log (see the type's documentation).
    /// - Parameters:
    ///   - notifier: Records notices and hands them to the channels (live, email, push); shared with the other
    ///     services that send notices (calendar feeds).
    ///   - jobs: Where reminders are planned.
    ///   - busyTimes: Where the busy time of users who avoid it is read (FR-50A).
    public init(instances: ChoreInstanceService, notifier: Notifier, jobs: JobQueue, busyTimes: BusyTimes = .none) {
        households = instances.chores.households
        self.instances = instances
        self.notifier = notifier
        gate = ReminderGate(notifier: notifier, busyTimes: busyTimes)
        habitReminders = HabitReminderPlanner(jobs: jobs)
        let clock = households.clock
        ChoreNotices(notifier: notifier, reminders: ReminderPlanner(jobs: jobs), clock: clock).register(on: households.changeLog)
        HouseholdSwitchNotices(notifier: notifier, clock: clock).register(on: households.changeLog)
        habitReminders.register(on: households.changeLog, clock: clock)
    }

    /// The job handler that sends chores' reminders; register it with the scheduler.
    public var reminderJob: ReminderJob { ReminderJob(service: instances, gate: gate) }

    /// The job handler that sends habits' reminders; register it with the scheduler.
    public var habitReminderJob: HabitReminderJob { HabitReminderJob(pool: pool, clock: households.clock, gate: gate, planner: habitReminders) }

    var pool: any DatabaseWriter { households.pool }

    /// A page of the viewer's notifications, newest first (skipped and dismissed ones included,
    /// marked so): the first `first` (at most 100, 100 when `nil`) after `after`.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func notifications(viewer: Viewer, first: Int? = nil, after: String? = nil) async throws -> InstancePage<NotificationRecord> {
        let maximum = InstancePage<NotificationRecord>.maximumSize
        let (size, cursor) = try InstanceCursor.page(first: first, after: after, kind: .notification, maximum: maximum)
        let (older, arguments) = InstanceCursor.older(than: cursor, columns: "created_at, id")
        return try await pool.readPreferringCallingThread { database in
            let rows = try OwnerScope(Owner(viewer), database).query(
                "SELECT \(NotificationRecord.columns) FROM notifications WHERE user_id = {owner}\(older) ORDER BY created_at DESC, id DESC LIMIT ?",
                StatementArguments(arguments + [size + 1]))
            let records = try rows.map(NotificationRecord.init(row:))
            return InstancePage(reading: records, size: size, after: cursor) { InstanceCursor(time: $0.notice.createdAt, id: $0.notice.id) }
        }
    }

    /// The viewer's notifications among `ids` (others, and ids of other types, are left out).
    public func notifications(ids: [String], viewer: Viewer) async throws -> [NotificationRecord] {
        let wanted = ids.filter { GlobalID.mayName(.notification, $0) }
        guard !wanted.isEmpty else { return [] }
        return try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).query(
                "SELECT \(NotificationRecord.columns) FROM notifications WHERE user_id = {owner} AND id IN (\(ChoreReferences.placeholders(wanted.count)))",
                StatementArguments(wanted.map { $0 as (any DatabaseValueConvertible)? })
            ).map(NotificationRecord.init(row:))
        }
    }

    /// Marks the viewer's notification `id` read (again: no change).
    /// - Throws: `NOT_FOUND` for an id that is not one of the viewer's notifications; `CONFLICT` for a reused `clientMutationID`.
    public func markNotificationRead(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> NotificationRecord {
        guard GlobalID.mayName(.notification, id) else { throw Self.notFound }
        let now = households.clock.storedNow
        let marked = try await households.mutate("markNotificationRead", by: viewer, replaying: clientMutationID, about: id, at: now) { database in
            let owner = OwnerScope(Owner(viewer), database)
            try owner.execute("UPDATE notifications SET read_at = ? WHERE id = ? AND user_id = {owner} AND read_at IS NULL", [now, id])
            guard let row = try owner.queryOne("SELECT \(NotificationRecord.columns) FROM notifications WHERE id = ? AND user_id = {owner}", [id])
            else { throw Self.notFound }
            return try NotificationRecord(row: row).notice.id
        }
        return try await pool.readPreferringCallingThread { database in
            guard let row = try OwnerScope(Owner(viewer), database).queryOne(
                "SELECT \(NotificationRecord.columns) FROM notifications WHERE id = ? AND user_id = {owner}", [marked])
            else { throw Self.notFound }
            return try NotificationRecord(row: row)
        }
    }

    /// The viewer's notification preferences (the defaults until they change them).
    public func preferences(viewer: Viewer) async throws -> NotificationPreferences {
        try await pool.readPreferringCallingThread { database in try NotificationPreferences.read(OwnerScope(Owner(viewer), database)) }
    }

    /// What `updateNotificationPreferences` changes; `nil` fields stay as they are.
    public struct PreferencesUpdate: Sendable {
        /// The channels to deliver on (replacing the list).
        public var channels: [NotificationChannelKind]?
        /// Quiet hours, `.some(nil)` to clear them.
        public var quietHours: QuietHours??
        /// The zone quiet hours are read in, `.some(nil)` for the account's.
        public var timeZone: String??
        /// Whether reminders avoid busy times (FR-50A).
        public var avoidsBusyTimes: Bool?

        /// Creates the update.
        public init(channels: [NotificationChannelKind]? = nil, quietHours: QuietHours?? = nil, timeZone: String?? = nil, avoidsBusyTimes: Bool? = nil) {
            self.channels = channels
            self.quietHours = quietHours
            self.timeZone = timeZone
            self.avoidsBusyTimes = avoidsBusyTimes
        }
    }

    /// Changes the viewer's notification preferences.
    /// - Throws: `BAD_USER_INPUT` (`UNKNOWN_VALUE` on `input.timeZone`) for a zone this server does not know;
    ///   `CONFLICT` for a reused `clientMutationID`.
    public func updateNotificationPreferences(
        _ update: PreferencesUpdate, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> NotificationPreferences {
        if case .some(.some(let name)) = update.timeZone, TimeZoneRules.named(name) == nil {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.timeZone", reason: .unknownValue, message: "The time zone \(name) is not in this server's time zone database.")]))
        }
        let now = households.clock.storedNow
        _ = try await households.mutate("updateNotificationPreferences", by: viewer, replaying: clientMutationID, at: now) { database in
            let owner = OwnerScope(Owner(viewer), database)
            var preferences = try NotificationPreferences.read(owner)
            if let channels = update.channels { preferences.channels = Set(channels) }
            if let quietHours = update.quietHours { preferences.quietHours = quietHours }
            if let timeZone = update.timeZone { preferences.timeZone = timeZone }
            if let avoidsBusyTimes = update.avoidsBusyTimes { preferences.avoidsBusyTimes = avoidsBusyTimes }
            try preferences.write(owner, at: now)
            return viewer.userID
        }
        return try await preferences(viewer: viewer)
    }

    /// The answer for a notification that is not the viewer's, or does not exist.
    static let notFound = ServiceError(.notFound, "There is no such notification.")
}
