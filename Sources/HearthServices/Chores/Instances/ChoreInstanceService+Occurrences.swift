import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// The next `first` due times of `chore` (granted by `access`) at or after `after`, in order
    /// (FR-36, FR-37): what clients show as "next due" and what planning writes. A recurrence
    /// honours COUNT, UNTIL and EXDATE; a one-off chore has its one due time; an `afterCompletion`
    /// chore's come the interval after its latest completion (the viewer's own, for a per-member
    /// chore they are in), then at that interval.
    /// `timeZoneName`, the household's time zone when the caller has read it already (lists read
    /// it once for all their chores), spares the read: only `afterCompletion` chores then read
    /// anything.
    /// - Throws: `BAD_USER_INPUT` on `first` outside 0…`--max-chore-occurrences` (500).
    public func occurrences(of chore: ChoreRecord, access: ChoreAccess, timeZoneName: String? = nil, after: Date, first: Int) async throws -> [Date] {
        let maximum = configuration.maximumOccurrences
        guard (0...maximum).contains(first) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "first", reason: .outOfRange, message: "Ask for 0 to \(maximum) occurrences at a time.")]))
        }
        if let timeZoneName, chore.householdID != nil {
            let timeline = try ChoreTimeline(chore.schedule, timeZone: RecurrenceZone.timeZone(named: timeZoneName))
            if !timeline.followsCompletions { return timeline.dueTimes(after: after, limit: first) }
        }
        return try await pool.readPreferringCallingThread { [planner] database in
            let scope = access.scope(database)
            let timeline = try planner.timeline(of: chore, scope)
            guard timeline.followsCompletions else { return timeline.dueTimes(after: after, limit: first) }
            let latest = try InstancePlanner.latestCompletions(of: chore.id, scope)
            let own = access.household.flatMap { latest[$0.memberID] }
            return timeline.dueTimes(after: after, limit: first, lastCompletedAt: own ?? latest.values.max())
        }
    }
}
