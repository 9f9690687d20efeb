import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Editing and deleting households, the active household and roles (FR-08 – FR-11, FR-16,
/// FR-17); departures are in `+Departures`.
///
/// Every mutation runs in one write transaction: the caller's access is checked inside it, the
/// change and its event are written, and its `clientMutationId` is remembered
/// (``MutationReplay``), so a replay returns the first result and changes nothing. Results are
/// read again after the commit, so they show the objects as they are now.
///
/// The active household (FR-11, FR-17) follows the rules of ``ActiveHousehold``: one row per
/// user, only for an active membership; a departure or deletion that takes the active
/// membership away activates the user's most recently joined remaining household.
extension HouseholdService {
    /// The viewer's active household; `nil` when they belong to none.
    public func activeHousehold(viewer: Viewer) async throws -> AccessibleHousehold? {
        try await activeHousehold(viewer: viewer, at: readMark())
    }

    /// The viewer's active household, kept under `mark` (``readMark()``) or, without one, read;
    /// `nil` when they belong to none.
    public func activeHousehold(viewer: Viewer, at mark: HouseholdReadMark?) async throws -> AccessibleHousehold? {
        if let mark { return try await keptActiveHousehold(of: viewer, at: mark.change) }
        return try await pool.readPreferringCallingThread { database in try Self.activeHousehold(of: viewer, in: database) }
    }

    /// The viewer's active household among their memberships kept under `mark`.
    private func keptActiveHousehold(of viewer: Viewer, at mark: ChangeMark) async throws -> AccessibleHousehold? {
        try await memberships(of: viewer, at: mark).first.flatMap { $0.isActive ? ($0.household, $0.access) : nil }
    }

    private static func activeHousehold(of viewer: Viewer, in database: Database) throws -> AccessibleHousehold? {
        try HouseholdAccess.memberships(of: viewer, activeHouseholdOnly: true, in: database).first.map { ($0.household, $0.access) }
    }

    /// The viewer's active household with the page `members` asks for of its members (the home
    /// screen): kept under `mark` (``readMark()``) or, without one, read together in one read
    /// transaction; `nil` when they belong to none.
    public func activeHousehold(viewer: Viewer, members query: MemberPageQuery, at mark: HouseholdReadMark?) async throws
        -> (household: AccessibleHousehold, members: MemberPage)? {
        if let mark {
            guard let household = try await keptActiveHousehold(of: viewer, at: mark.change) else { return nil }
            return (household, try await memberPage(query, household.access, at: mark.change))
        }
        return try await pool.readPreferringCallingThread { database in
            guard let household = try Self.activeHousehold(of: viewer, in: database) else { return nil }
            return (household, try MemberPage.read(query, HouseholdScope(household.access, database)))
        }
    }

    /// The household `id` when the viewer is an active member of it, else `nil`.
    private static func accessibleHousehold(id: String, viewer: Viewer, in database: Database) throws -> AccessibleHousehold? {
        do {
            let (access, household) = try HouseholdAccess.checkReadingHousehold(viewer: viewer, householdID: id, in: database)
            return (household, access)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    // MARK: - Editing (FR-08)

    /// Changes to a household. For each field, `nil` (absent) leaves it as it is and `.some(nil)`
    /// (given as `null`) clears it; the name and the time zone cannot be cleared.
    public struct HouseholdChanges: Sendable {
        /// The new name, 1–80 characters after trimming.
        public var name: String??
        /// The new emoji; `.some(nil)` or an empty string removes it.
        public var emoji: String??
        /// The new location label; `.some(nil)` or an empty string removes it.
        public var locationLabel: String??
        /// The new IANA time zone.
        public var timeZone: String??
        /// The day the leaderboard's weeks start on; `.some(nil)` restores the default (Monday).
        public var firstWeekday: Weekday??

        /// Creates the changes; fields not given stay as they are.
        public init(
            name: String?? = nil, emoji: String?? = nil, locationLabel: String?? = nil, timeZone: String?? = nil, firstWeekday: Weekday?? = nil
        ) {
            self.name = name
            self.emoji = emoji
            self.locationLabel = locationLabel
            self.timeZone = timeZone
            self.firstWeekday = firstWeekday
        }
    }

    /// Edits a household's name, emoji, location label, time zone (FR-08) or first weekday (where
    /// its leaderboard's weeks start, FR-56). Admins only. A
    /// change that leaves every field as it was writes nothing and records no event.
    /// - Throws: `BAD_USER_INPUT` (every field problem at once; `REQUIRED` for a null name or
    ///   time zone), `NOT_FOUND`, `FORBIDDEN` for members, `CONFLICT` for a reused `clientMutationID`.
    public func updateHousehold(
        id householdID: String, _ changes: HouseholdChanges, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleHousehold {
        var problems = ProblemCollector()
        let name = changes.name.map { given in
            problems.check { () throws(FieldProblem) -> String in
                guard let given else { throw FieldProblem(field: "input.name", reason: .required, message: "A household needs a name.") }
                return try DisplayText.name(given, field: "input.name")
            }
        }
        let emoji = changes.emoji.map { given in
            problems.check { () throws(FieldProblem) in try DisplayText.emoji(given, field: "input.emoji") } ?? nil
        }
        let location = changes.locationLabel.map { given in
            problems.check { () throws(FieldProblem) in try DisplayText.optionalLabel(given, field: "input.locationLabel") } ?? nil
        }
        let zone = changes.timeZone.map { given in
            problems.check { () throws(FieldProblem) -> TimeZoneName in
                guard let given else {
                    throw FieldProblem(field: "input.timeZone", reason: .required, message: "A household needs a time zone.")
                }
                return try TimeZoneName(given, field: "input.timeZone")
            }
        }
        try problems.throwIfAny()
        let now = clock.storedNow
        let updated = try await mutate("updateHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let before = try HouseholdRecord.find(scope)
            var after = before
            if let name = name ?? nil { after.name = name }
            if let emoji { after.emoji = emoji }
            if let location { after.locationLabel = location }
            if let zone = zone ?? nil { after.timeZone = zone.name }
            if let firstWeekday = changes.firstWeekday { after.firstWeekday = firstWeekday ?? .fallback }
            if after != before {
                try scope.execute(
                    """
                    UPDATE households SET name = ?, name_key = ?, emoji = ?, location_label = ?, time_zone = ?, first_weekday = ?, updated_at = ?
                    WHERE id = {household}
                    """,
                    [after.name, DisplayText.sortKey(after.name), after.emoji, after.locationLabel, after.timeZone, after.firstWeekday.rawValue, now])
                let newZone = after.timeZone == before.timeZone ? nil : after.timeZone
                try record(.householdUpdated, HouseholdChange(householdID: before.id, timeZone: newZone), in: database)
            }
            return HouseholdReference(householdID: before.id)
        }
        return try await household(id: updated.householdID, viewer: viewer)
    }

    // MARK: - Deleting (FR-09)

    /// What remains for the viewer after a household is deleted or left.
    public struct Departure: Sendable {
        /// The household deleted or left.
        public var householdID: String
        /// The viewer's active household now; `nil` when they belong to none.
        public var activeHousehold: AccessibleHousehold?
    }

    /// Deletes a household and everything it owns (FR-09) in one transaction: the foreign keys
    /// of every household-owned table cascade from `households`, departed members included. Admins only; `confirmName`
    /// must repeat the current name exactly. The `household.deleted` event is recorded first
    /// (the change log is not household-owned, so it outlives the household), listing every object
    /// that goes with it, and each active member's account loses the household's sync scope; its shares
    /// of personal chores end (``ChoreService/recordEnd(ofSharesWhere:_:_:at:in:)``). Members whose
    /// active household it was get their most recently joined other household as active.
    /// - Throws: `BAD_USER_INPUT` with reason `MISMATCH` on `input.confirmName`, `NOT_FOUND`,
    ///   `FORBIDDEN` for members, `CONFLICT` for a reused `clientMutationID`.
    public func deleteHousehold(
        id householdID: String, confirmName: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Departure {
        let now = clock.storedNow
        let deleted = try await mutate("deleteHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let household = try HouseholdRecord.find(scope)
            guard confirmName == household.name else {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.confirmName", reason: .mismatch,
                    message: "Type the household's name exactly as it is shown to confirm the deletion.")]))
            }
            // Offline sync: every object that goes with it, and every member's view of it.
            let removed = try SyncScopes.objects(in: [.household(household.id)], after: nil, limit: Int.max, in: database)
            try record(.householdDeleted, HouseholdChange(householdID: household.id), touching: removed, in: database)
            try HouseholdTombstones.record(scope, at: now)
            // Its shares of personal chores go with it: ended first, while they list their objects.
            try ChoreService.recordEnd(ofSharesWhere: "recipient_household_id = ?", household.id, changeLog, at: now, in: database)
            for row in try scope.query("SELECT user_id FROM members WHERE household_id = {household} AND status = 'active' AND user_id IS NOT NULL") {
                try SyncScopeChange.record(.syncScopeLost, scope: .household(household.id), for: try row["user_id"], changeLog, in: database)
            }
            // Whose active household goes with it: they get another one after the delete.
            let activeFor = try scope.decode(
                MemberRecord.self,
                """
                SELECT \(MemberRecord.columns) FROM members
                WHERE household_id = {household} AND user_id IN (SELECT user_id FROM active_households WHERE household_id = {household})
                """
            ).compactMap(Owner.init(accountOf:))
            try scope.execute("DELETE FROM households WHERE id = {household}")
            for owner in activeFor {
                try ActiveHousehold.reassign(at: now, OwnerScope(owner, database))
            }
            return HouseholdReference(householdID: household.id)
        }
        return Departure(householdID: deleted.householdID, activeHousehold: try await activeHousehold(viewer: viewer))
    }

    // MARK: - The active household (FR-11, FR-17)

    /// The result of ``setActiveHousehold(id:viewer:clientMutationID:)``.
    public struct ActiveHouseholdSwitch: Sendable {
        /// The active household now.
        public var household: AccessibleHousehold
        /// The one active before (the same one when it already was active); `nil` when there was
        /// none, or when the viewer has left it since (a replay).
        public var previousHousehold: AccessibleHousehold?
    }

    /// Makes one of the viewer's households their active one (FR-11); the previous one stops
    /// being active in the same statement (FR-17: the row is replaced). Switching to the
    /// household that is already active changes nothing.
    /// - Throws: `NOT_FOUND` when the viewer is not an active member, `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func setActiveHousehold(id householdID: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> ActiveHouseholdSwitch {
        let now = clock.storedNow
        let switched = try await mutate("setActiveHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
            let owner = OwnerScope(Owner(viewer), database)
            let previous = try ActiveHousehold.id(owner)
            if previous != access.householdID {
                try ActiveHousehold.activate(householdID: access.householdID, at: now, owner)
                try changeLog.record(
                    topic: .user(viewer.userID), kind: .activeHouseholdChanged,
                    payload: ActiveHouseholdChange(userID: viewer.userID, householdID: access.householdID, previousHouseholdID: previous),
                    in: database)
            }
            return ActiveHouseholdReference(householdID: access.householdID, previousHouseholdID: previous)
        }
        return try await pool.readPreferringCallingThread { database in
            guard let household = try Self.accessibleHousehold(id: switched.householdID, viewer: viewer, in: database) else {
                throw ServiceError.householdNotFound
            }
            let previous = try switched.previousHouseholdID.flatMap { try Self.accessibleHousehold(id: $0, viewer: viewer, in: database) }
            return ActiveHouseholdSwitch(household: household, previousHousehold: previous)
        }
    }

    // MARK: - Roles (FR-16)

    /// Changes a member's role (FR-16). Admins only. An invited member's role is the one the
    /// invitation gives on accepting (the member record holds it). Setting the role a member
    /// already has changes nothing.
    /// - Throws: `BAD_USER_INPUT` on `input.role` when making a child or shadow admin, on
    ///   `input.memberId` (reason `NOT_ALLOWED`) for a member who has left;
    ///   `CONFLICT` with reason `LAST_ADMIN` when demoting the household's last active admin;
    ///   `NOT_FOUND` for a member of a household the viewer is not in; `FORBIDDEN` for members;
    ///   `CONFLICT` for a reused `clientMutationID`.
    public func changeMemberRole(
        memberID: String, to role: MemberRole, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleMember {
        let now = clock.storedNow
        let changed = try await mutate("changeMemberRole", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let (scope, member) = try Self.memberForAdmin(memberID, viewer: viewer, in: database)
            if role == .admin, !member.kind.isAdult {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.role", reason: .notAllowed, message: "Children and shadow members cannot be admins.")]))
            }
            if member.role != role {
                if member.role == .admin, member.status == .active,
                    try Self.activeAdminCount(scope, excluding: member.id) == 0 {
                    throw ServiceError(
                        .conflict, reason: .lastAdmin,
                        "A household needs an admin: make another adult admin before changing this role.")
                }
                try scope.execute(
                    "UPDATE members SET role = ?, updated_at = ? WHERE id = ? AND household_id = {household}", [role.rawValue, now, member.id])
                try record(
                    .memberRoleChanged, HouseholdChange(householdID: member.householdID, memberID: member.id, userID: member.userID),
                    in: database)
            }
            return MemberReference(householdID: member.householdID, memberID: member.id)
        }
        return try await accessibleMember(changed, viewer: viewer)
    }

    /// The member `memberID`, not departed, with the scope of its household, for a change an
    /// admin of that household makes (a role, a removal).
    /// - Throws: `NOT_FOUND`, `FORBIDDEN` for members; `BAD_USER_INPUT` for a departed member
    ///   (``MemberRecord/findPresent(id:_:)``).
    static func memberForAdmin(_ memberID: String, viewer: Viewer, in database: Database) throws -> (HouseholdScope, MemberRecord) {
        let scope = try HouseholdScope.check(
            viewer: viewer, owning: .members, id: memberID, requiring: .admin, notFound: .memberNotFound, in: database)
        return (scope, try MemberRecord.findPresent(id: memberID, scope))
    }

    /// How many active admins the household has besides `memberID` (departed ones do not count).
    ///
    /// The last-admin rule checks other rows than it writes: two admins demoting, removing or
    /// leaving at once is a write skew, which only the store's isolation refuses. SQLite's one
    /// writer runs them in turn; on PostgreSQL the `SERIALIZABLE` write transaction of the second
    /// to commit fails to serialize and its retry sees the first's change (under `READ COMMITTED`
    /// four admins demoting themselves at once all succeed: ConcurrentInstancesPostgresTests). No
    /// row lock is added: under `SERIALIZABLE` it would end in the same retry.
    static func activeAdminCount(_ scope: HouseholdScope, excluding memberID: String) throws -> Int {
        try scope.scalar(
            Int.self, "SELECT count(*) FROM members WHERE household_id = {household} AND role = 'admin' AND status = 'active' AND id <> ?",
            [memberID]) ?? 0
    }
}

/// The households of a switch, as ``MutationReplay`` stores them.
private struct ActiveHouseholdReference: Codable {
    var householdID: String
    var previousHouseholdID: String?
}
