import FoundationEssentials
import HearthDomain
import HearthStore

/// Writes a chore's instances up to the horizon and keeps them in step with its definition and
/// its household's members, inside the caller's transaction (FR-33, FR-36, FR-37; issue 14's
/// instances). It runs when a chore is created or edited, when a member joins or leaves, after a
/// completion of an `afterCompletion` chore, and as the `chore.plan` job when the next occurrence
/// comes within the horizon (``InstancePlanJob``). Every run computes from the stored state alone,
/// so running it twice changes nothing the second time.
///
/// What one run does, at `now`, with `through` = now + horizon:
/// - **Who.** A shared instance (`INDIVIDUAL`, `SINGLE_ACTION`, personal chores), or one per
///   active member of `GROUP` (its active assignees) and `ALL_MEMBERS` (every active member).
///   Departed members get none.
/// - **When.** A recurrence's occurrences from where the last run stopped (or the chore's
///   creation) through `through`: after downtime the missed ones are written too, as overdue (the
///   latest ``InstancesConfiguration/maximumMissedOccurrences`` of them).
///   A one-off chore's due time once it is within the horizon. An `afterCompletion` chain (per
///   member, or shared) has one open instance, due the interval after its latest completion.
/// - **Recalculation.** Instances not started (pending, no step done) that the definition no
///   longer produces are removed: of a recurrence those due from now on (an overdue one stays as
///   it was due), of the other schedules any, and any of a member who is no longer one of the
///   chore's. Started, claimed (FR-52) and finished instances never change. Ids are derived (``ChoreInstanceID``),
///   so an instance that is produced again gets its id again.
/// - **Archiving (FR-37).** A one-off chore's instance still pending after the end of its due
///   day (in the chore's time zone) is archived: kept in history, no longer to do. The one-off
///   chore itself is archived (`chores.archived_at`) once its occurrence has instances and none
///   is open (pending or waiting for approval): completed, or archived past due. It is active
///   again when one reopens (an undone completion, a rejection) or an edit moves the due time on.
/// - **Events.** Each instance written, removed, archived or cancelled is its own event on the
///   chore's topic (`chore_instance.created`, `.removed`, `.changed`, `.cancelled`: what
///   `choreEvents` delivers), and a run that changed anything also records one
///   `chore_instance.planned` about the chore.
/// - **Offers (FR-51).** Each shared household instance written gets its `chore.offer` job, due
///   at its due time (``InstanceOffers``).
/// - **Absences (FR-19 – FR-22).** While a member is on vacation (or departed with
///   `REDISTRIBUTE`), the instances written for them are paused or handed on at once
///   (``InstanceHandover``).
/// - **Next run.** `chore_plans` records how far instances are written and the first due time
///   after that, and a `chore.plan` job is enqueued for when that time comes within the horizon
///   (or a one-off instance is to be archived), keyed by chore and time.
struct InstancePlanner {
    let configuration: InstancesConfiguration
    let chores: ChoreService
    let jobs: JobQueue

    /// Offers of due shared instances to their eligible members.
    var offers: InstanceOffers { InstanceOffers(chores: chores, jobs: jobs) }

    /// Who holds open instances while members are away or gone (vacation mode, departures).
    var handover: InstanceHandover { InstanceHandover(chores: chores, offers: offers) }

    /// What a run changed.
    struct Outcome {
        var written = 0
        var removed = 0
        var archived = 0
        /// Whether the chore itself was archived or made active again (FR-37).
        var choreStatusChanged = false
        var changed: Bool { written + removed + archived > 0 || choreStatusChanged }
    }

    /// Plans `chore` (not deleted) of `scope` at `now`; records `chore_instance.planned` when an
    /// instance was written, removed or archived.
    @discardableResult
    func plan(_ chore: ChoreRecord, _ scope: ChoreScope, at now: Date) throws -> Outcome {
        let timeline = try timeline(of: chore, scope)
        let through = now.addingTimeInterval(configuration.horizonSeconds)
        let targets = try Self.targets(of: chore, scope)
        let open = try openInstances(of: chore.id, scope)
        var expected: [String: ChoreInstanceRecord] = [:]
        var nextUnplanned: Date?
        var reconcileFrom: Date?
        switch chore.schedule {
        case .recurrence:
            let plannedThrough = try scope.scalar(Date.self, "SELECT planned_through FROM chore_plans WHERE chore_id = ? AND {scope}", [chore.id])
            let from = min(now, plannedThrough.map { $0.addingTimeInterval(0.001) } ?? chore.createdAt)
            // After a downtime, the occurrences missed meanwhile: the latest of them, at most
            // --max-chore-missed-occurrences. The upcoming ones, at most a horizon's worth, always.
            let missed = from < now ? timeline.dueTimes(after: from, through: now.addingTimeInterval(-0.001), limit: .max) : []
            for due in missed.suffix(configuration.maximumMissedOccurrences) + timeline.dueTimes(after: now, through: through, limit: .max) {
                Self.add(chore, due, targets, to: &expected)
            }
            nextUnplanned = timeline.dueTimes(after: through.addingTimeInterval(0.001), limit: 1).first
            reconcileFrom = now
        case .once(let dueAt):
            if dueAt <= through {
                Self.add(chore, dueAt, targets, to: &expected)
            } else {
                nextUnplanned = dueAt
            }
        case .afterCompletion:
            let completed = try Self.latestCompletions(of: chore.id, scope)
            for member in targets {
                // A chain whose open instance has started keeps it, whatever the schedule says now.
                if open.contains(where: { $0.instance.memberID == member && $0.isStarted }) { continue }
                guard let due = timeline.nextAfterCompletion(completed[member ?? ""]) else { continue }
                if due <= through {
                    Self.add(chore, due, [member], to: &expected)
                } else {
                    nextUnplanned = min(nextUnplanned ?? due, due)
                }
            }
        }
        var outcome = Outcome()
        // Recalculation: what is not started and no longer produced goes.
        let stale = open.filter { entry in
            guard !entry.isStarted, expected[entry.instance.id] == nil else { return false }
            let member = entry.instance.memberID
            return !targets.contains(member) || reconcileFrom.map { entry.instance.occurrenceAt >= $0 } ?? true
        }
        for entry in stale {
            try scope.execute("DELETE FROM chore_instances WHERE id = ? AND {scope} AND status = 'pending'", [entry.instance.id])
            guard scope.changedRowCount == 1 else { continue }
            outcome.removed += 1
            try chores.record(instance: ChoreInstanceChange(entry.instance), kind: .choreInstanceRemoved, scope)
        }
        var written: Set<String> = []
        for instance in expected.values.sorted(by: { ($0.occurrenceAt, $0.id) < ($1.occurrenceAt, $1.id) }) {
            guard try instance.insert(at: now, scope) else { continue }
            outcome.written += 1
            written.insert(instance.id)
            try chores.record(instance: ChoreInstanceChange(instance), kind: .choreInstanceCreated, scope)
            try offers.schedule(instance, of: chore, scope)
        }
        // Instances written while their member is away follow the vacation's handling (or a departure's); so do the
        // open ones kept, whose holder or eligible members an edit of the chore may have changed.
        try handover.settleIfAnyoneIsAway(scope, at: now, only: written.union(open.map(\.instance.id)))
        var archiveAt: Date?
        if case .once(let dueAt) = chore.schedule {
            outcome.archived = try archivePastDue(chore.id, timeline, scope, at: now)
            outcome.choreStatusChanged = try settleArchive(of: chore, dueAt: dueAt, scope, at: now)
            archiveAt = try scope.scalar(
                Date.self, "SELECT min(due_at) FROM chore_instances WHERE chore_id = ? AND {scope} AND status = 'pending'", [chore.id]
            ).map { ChoreTimeline.endOfDay(of: $0, in: timeline.timeZone) }
        }
        try scope.execute(
            """
            INSERT INTO chore_plans (chore_id, household_id, user_id, planned_through, next_unplanned_at, updated_at)
            VALUES (?, {scope_ids}, ?, ?, ?)
            ON CONFLICT (chore_id) DO UPDATE SET
                planned_through = excluded.planned_through, next_unplanned_at = excluded.next_unplanned_at, updated_at = excluded.updated_at
            """,
            [chore.id, through, nextUnplanned, now])
        let horizon = configuration.horizonSeconds
        if let wake = [nextUnplanned.map { $0.addingTimeInterval(-horizon) }, archiveAt].compactMap({ $0 }).min() {
            try jobs.enqueue(
                kind: .chorePlan, payload: InstancePlanJob.Payload(choreID: chore.id), dueAt: max(wake, now),
                dedupeKey: "\(chore.id)@\(ChoreInstanceID.unixMilliseconds(max(wake, now)))", in: scope.database)
        }
        if outcome.changed {
            try chores.record(.choreInstancesPlanned, scope.access, choreID: chore.id, in: scope.database)
        }
        return outcome
    }

    /// Cancels the pending instances of the deleted chore `choreID` (FR-34): they stay, cancelled,
    /// with what was done of them; finished ones and their history stay as they are.
    func cancel(choreID: String, _ scope: ChoreScope, at now: Date) throws {
        let cancelled = try scope.query(
            """
            UPDATE chore_instances SET status = 'cancelled', updated_at = ? WHERE chore_id = ? AND {scope} AND status = 'pending'
            RETURNING \(ChoreInstanceRecord.columns)
            """,
            [now, choreID]
        ).map(ChoreInstanceRecord.init(row:)).sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }
        for instance in cancelled {
            try chores.record(instance: ChoreInstanceChange(instance), kind: .choreInstanceCancelled, scope)
        }
        try scope.execute("DELETE FROM chore_plans WHERE chore_id = ? AND {scope}", [choreID])
        if !cancelled.isEmpty { try chores.record(.choreInstancesPlanned, scope.access, choreID: choreID, in: scope.database) }
    }

    /// Adds the instances of `chore` due at `due` for `members` to `instances`, by id.
    private static func add(_ chore: ChoreRecord, _ due: Date, _ members: [String?], to instances: inout [String: ChoreInstanceRecord]) {
        for member in members {
            let instance = ChoreInstanceRecord(chore: chore, occurrence: due, memberID: member)
            instances[instance.id] = instance
        }
    }

    /// The timeline of `chore`, in its household's (or owner's) time zone.
    /// - Throws: `BAD_USER_INPUT` naming the zone when the system no longer has it: that zone
    ///   (``RecurrenceZone``), or a `TZID` of the stored recurrence (`UNKNOWN_VALUE` on
    ///   `schedule.recurrence`); never a reading in UTC instead.
    func timeline(of chore: ChoreRecord, _ scope: ChoreScope) throws -> ChoreTimeline {
        let zone = try RecurrenceZone.timeZone(named: try chores.timeZoneName(scope))
        do {
            return try ChoreTimeline(chore.schedule, timeZone: zone)
        } catch {
            // Stored text parsed when it was saved: only a zone the system dropped since fails.
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "schedule.recurrence", reason: error.code == .unknownTimeZone ? .unknownValue : .invalidFormat,
                message: "This chore's recurrence no longer reads: \(error.description) Edit its schedule.")]))
        }
    }

    /// Who the instances of `chore` are for: `[nil]` for a shared instance, else the active
    /// members it is for, in order.
    static func targets(of chore: ChoreRecord, _ scope: ChoreScope) throws -> [String?] {
        switch chore.assignmentMode {
        case .individual, .singleAction:
            return [nil]
        case .group, .allMembers:
            guard chore.householdID != nil else { return [nil] }
            return (try ChoreDetails.assignees(of: [chore], scope)[chore.id] ?? []).filter { $0.member.status == .active }.map(\.member.id)
        }
    }

    /// A pending instance and whether it is started: a step done, or claimed (recalculation keeps
    /// it, as it keeps what someone began).
    struct OpenInstance {
        var instance: ChoreInstanceRecord
        var isStarted: Bool
    }

    /// The pending instances of `choreID`.
    private func openInstances(of choreID: String, _ scope: ChoreScope) throws -> [OpenInstance] {
        try scope.query(
            """
            SELECT \(ChoreInstanceRecord.columns.qualified(by: "i")), i.claimant_id IS NOT NULL OR EXISTS (
                SELECT 1 FROM chore_completions c WHERE c.instance_id = i.id AND c.status IN ('completed', 'pending_approval')
            ) AS is_started
            FROM chore_instances i WHERE i.chore_id = ? AND i.{scope} AND i.status = 'pending'
            """,
            [choreID]
        ).map { OpenInstance(instance: try ChoreInstanceRecord(row: $0), isStarted: try $0["is_started"]) }
    }

    /// The latest completion time of each `afterCompletion` chain of `choreID`, by member id
    /// (`""` for the shared chain).
    static func latestCompletions(of choreID: String, _ scope: ChoreScope) throws -> [String: Date] {
        try latestCompletions(of: [choreID], scope)[choreID] ?? [:]
    }

    /// ``latestCompletions(of:_:)`` of many chores in one statement, by chore id (chores never
    /// completed are absent). With a list of chores SQLite's planner prefers the household's
    /// index, which walks every finished instance of the household (its whole history), hence
    /// the finished instances by chore (migration 0017) are named on SQLite (``DialectSQL/indexHint(_:_:)``).
    static func latestCompletions(of choreIDs: [String], _ scope: ChoreScope) throws -> [String: [String: Date]] {
        guard !choreIDs.isEmpty else { return [:] }
        var latest: [String: [String: Date]] = [:]
        for row in try scope.query(
            """
            SELECT chore_id, member_id, max(completed_at) AS completed_at FROM chore_instances\(DialectSQL.indexHint("chore_instances_completed", scope.database.dialect))
            WHERE chore_id IN (\(ChoreReferences.placeholders(choreIDs.count))) AND {scope} AND status IN ('completed', 'pending_approval')
            GROUP BY chore_id, member_id
            """,
            ChoreReferences.arguments(choreIDs)) {
            latest[try row["chore_id"], default: [:]][try row["member_id"] as String? ?? ""] = try row["completed_at"]
        }
        return latest
    }

    /// Archives the pending instances of the one-off chore `choreID` whose due day has ended.
    private func archivePastDue(_ choreID: String, _ timeline: ChoreTimeline, _ scope: ChoreScope, at now: Date) throws -> Int {
        let pending = try scope.query(
            "SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE chore_id = ? AND {scope} AND status = 'pending' ORDER BY due_at, id",
            [choreID]
        ).map(ChoreInstanceRecord.init(row:))
        var archived = 0
        for instance in pending where ChoreTimeline.endOfDay(of: instance.dueAt, in: timeline.timeZone) <= now {
            try scope.execute(
                "UPDATE chore_instances SET status = 'archived', updated_at = ? WHERE id = ? AND {scope} AND status = 'pending'",
                [now, instance.id])
            guard scope.changedRowCount == 1 else { continue }
            archived += 1
            try chores.record(instance: ChoreInstanceChange(instance), kind: .choreInstanceChanged, scope)
        }
        return archived
    }
}
