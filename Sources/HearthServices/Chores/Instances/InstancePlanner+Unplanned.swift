import FoundationEssentials
import HearthDomain
import HearthStore

extension InstancePlanner {
    /// The instances `chore` has beyond what its plan wrote, due from `from` through `through`,
    /// at most `limit` due times: computed as a run at that time would write them, not stored
    /// (reads beyond the horizon, and the first completion of such an instance). An
    /// `afterCompletion` chain has one: its next due time, unless it has an open instance.
    func unplanned(_ chore: ChoreRecord, _ scope: ChoreScope, from: Date, through: Date, limit: Int) throws -> [ChoreInstanceRecord] {
        let plannedThrough = try scope.scalar(Date.self, "SELECT planned_through FROM chore_plans WHERE chore_id = ? AND {scope}", [chore.id])
        let lower = max(from, plannedThrough.map { $0.addingTimeInterval(0.001) } ?? from)
        guard lower <= through, limit > 0 else { return [] }
        let timeline = try timeline(of: chore, scope)
        let targets = try Self.targets(of: chore, scope)
        guard case .afterCompletion = chore.schedule else {
            return timeline.dueTimes(after: lower, through: through, limit: limit).flatMap { due in
                targets.map { ChoreInstanceRecord(chore: chore, occurrence: due, memberID: $0) }
            }
        }
        let completed = try Self.latestCompletions(of: chore.id, scope)
        let open = Set(try scope.query(
            "SELECT member_id FROM chore_instances WHERE chore_id = ? AND {scope} AND status = 'pending'", [chore.id]
        ).map { try $0["member_id"] as String? ?? "" })
        return targets.compactMap { member in
            guard !open.contains(member ?? ""), let due = timeline.nextAfterCompletion(completed[member ?? ""]), due >= lower, due <= through
            else { return nil }
            return ChoreInstanceRecord(chore: chore, occurrence: due, memberID: member)
        }
    }

    /// The instances of `chore` due at `dueAt` (to the millisecond, as ids carry it) beyond what
    /// its plan wrote.
    func unplanned(_ chore: ChoreRecord, _ scope: ChoreScope, dueAt: Date) throws -> [ChoreInstanceRecord] {
        try unplanned(chore, scope, from: dueAt.addingTimeInterval(-0.0005), through: dueAt.addingTimeInterval(0.0005), limit: 1)
    }
}
