import HearthDomain
import HearthStore

extension HouseholdService {
    /// Where a subscription to a household's changes starts: the subscriber's membership and the
    /// change log's newest sequence, read together.
    public struct EventsStart: Sendable {
        /// The subscriber's access: their member record when they subscribed.
        public let access: HouseholdAccess
        /// The newest change-log sequence then: a departure at or before it belongs to an earlier
        /// membership (the check found them a member after it), not to this one.
        public let sequence: Int64
    }

    /// Checks that `viewer` may follow `householdID`'s changes, in one read: they are an active
    /// member, and, when they resume from `cursor`, the change log still holds every change after it.
    /// Take the bus subscription (or change feed) first, then call this, so no change committed
    /// after the check can be missed.
    /// - Throws: `NOT_FOUND` for a household that does not exist or that they are not in (alike);
    ///   `CURSOR_EXPIRED` for a cursor older than the change log keeps.
    public func startEvents(viewer: Viewer, householdID: String, after cursor: Int64?) async throws -> EventsStart {
        guard GlobalID.mayName(.household, householdID) else { throw ServiceError.householdNotFound }
        return try await pool.readPreferringCallingThread { database in
            let access = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
            if let cursor { try ChangeLog.requireRetained(after: cursor, in: database) }
            return EventsStart(access: access, sequence: try ChangeLog.latestSequence(in: database))
        }
    }
}
