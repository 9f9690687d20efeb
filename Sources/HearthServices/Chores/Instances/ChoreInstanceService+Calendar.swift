import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// The statuses the calendar shows: what is or was to be done (not cancelled or archived ones).
    static let calendarStatuses: [ChoreInstanceStatus] = [.pending, .paused, .pendingApproval, .completed]

    /// The chore instances of the calendar (FR-59) due from `from` through `through`, by due time:
    /// every instance of the viewer's personal chores and, with `householdID`, every instance of
    /// that household's chores, whoever's (the household's calendar), in those states
    /// (``calendarStatuses``). Instances beyond what is planned are computed as `myChores`
    /// computes them. At most `limit` from each of the two.
    /// - Returns: The instances, and the ids of those that are the viewer's as `myChores` tells
    ///   (their personal ones; household ones claimed by, handed to, assigned to them, or open to
    ///   them to claim), whose reminders reach them.
    /// - Throws: `NOT_FOUND` for a `householdID` of a household the viewer is not in.
    public func calendarInstances(
        householdID: String?, from: Date, through: Date, limit: Int, viewer: Viewer
    ) async throws -> (instances: [MyChore], theirs: Set<String>) {
        if let householdID, !GlobalID.mayName(.household, householdID) { throw ServiceError.householdNotFound }
        let filter = MyChoresFilter(statuses: Self.calendarStatuses, dueAfter: from, dueBefore: through)
        return try await pool.readPreferringCallingThread { [self] database in
            var accesses = [ChoreAccess(personal: Owner(viewer))]
            if let householdID { accesses.append(try ChoreAccess.check(viewer: viewer, householdID: householdID, in: database)) }
            var found: [MyChore] = []
            var theirs = Set<String>()
            for access in accesses {
                let query = MyChoresQuery(filter: filter, cursor: nil, limit: limit, through: through, access: access, everyone: true)
                let all = try query.stored(database) + query.unplanned(planner, database)
                found += all
                guard access.household != nil else {
                    theirs.formUnion(all.map(\.instance.id))
                    continue
                }
                let mine = MyChoresQuery(filter: filter, cursor: nil, limit: limit, through: through, access: access, everyone: false)
                theirs.formUnion((try mine.stored(database) + mine.unplanned(planner, database)).map(\.instance.id))
            }
            return (MyChoresQuery.ordered(found), theirs)
        }
    }
}
