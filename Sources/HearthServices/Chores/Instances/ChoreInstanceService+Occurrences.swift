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
    /// it once for all their chores), spares the read, and with `latestCompletions` (the chore's
    /// ``latestCompletions(of:access:in:)``, which lists read for all their `afterCompletion`
    /// chores at once) nothing is read.
    /// - Throws: `BAD_USER_INPUT` on `first` outside 0…`--max-chore-occurrences` (500).
    public func occurrences(
        of chore: ChoreRecord, access: ChoreAccess, timeZoneName: String? = nil, latestCompletions: [String: Date]? = nil, after: Date, first: Int
    ) async throws -> [Date] {
        let maximum = configuration.maximumOccurrences
        guard (0...maximum).contains(first) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "first", reason: .outOfRange, message: "Ask for 0 to \(maximum) occurrences at a time.")]))
        }
        if let timeZoneName, chore.householdID != nil {
            let timeline = try ChoreTimeline(chore.schedule, timeZone: RecurrenceZone.timeZone(named: timeZoneName))
            if !timeline.followsCompletions { return timeline.dueTimes(after: after, limit: first) }
            if let latestCompletions { return Self.dueTimes(timeline, latestCompletions, access: access, after: after, first: first) }
        }
        return try await pool.readPreferringCallingThread { [planner] database in
            let scope = access.scope(database)
            let timeline = try planner.timeline(of: chore, scope)
            guard timeline.followsCompletions else { return timeline.dueTimes(after: after, limit: first) }
            return Self.dueTimes(timeline, try InstancePlanner.latestCompletions(of: chore.id, scope), access: access, after: after, first: first)
        }
    }

    /// The due times of an `afterCompletion` `timeline` after the latest of `latest` (the
    /// viewer's own chain, for a per-member chore they are in).
    private static func dueTimes(_ timeline: ChoreTimeline, _ latest: [String: Date], access: ChoreAccess, after: Date, first: Int) -> [Date] {
        let own = access.household.flatMap { latest[$0.memberID] }
        return timeline.dueTimes(after: after, limit: first, lastCompletedAt: own ?? latest.values.max())
    }

    /// The latest completion of each `afterCompletion` chain of each of `choreIDs` (all granted
    /// by `access`), by chore id then member id (`""` for a shared chain), in a shared read: what
    /// a list's next due times start from, for all its chores at once.
    public static func latestCompletions(of choreIDs: [String], access: ChoreAccess, in read: SharedRead) throws -> [String: [String: Date]] {
        try InstancePlanner.latestCompletions(of: choreIDs, access.scope(read.database))
    }
}
