import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Editing and deleting households, the active household, roles and departures (FR-08 – FR-11,
/// FR-14 – FR-17), and the members list.
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
        try await pool.readPreferringCallingThread { database in
            try HouseholdAccess.memberships(of: viewer, activeHouseholdOnly: true, in: database).first.map { ($0.household, $0.access) }
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

        /// Creates the changes; fields not given stay as they are.
        public init(name: String?? = nil, emoji: String?? = nil, locationLabel: String?? = nil, timeZone: String?? = nil) {
            self.name = name
            self.emoji = emoji
            self.locationLabel = locationLabel
            self.timeZone = timeZone
        }
    }

    /// Edits a household's name, emoji, location label or time zone (FR-08). Admins only. A
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
        let now = currentTime()
        let updated = try await mutate("updateHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let before = try HouseholdRecord.find(access, in: database)
            var after = before
            if let name = name ?? nil { after.name = name }
            if let emoji { after.emoji = emoji }
            if let location { after.locationLabel = location }
            if let zone = zone ?? nil { after.timeZone = zone.name }
            if after != before {
                try database.execute(
                    """
                    UPDATE households SET name = ?, name_key = ?, emoji = ?, location_label = ?, time_zone = ?, updated_at = ?
                    WHERE id = ?
                    """,
                    [after.name, DisplayText.sortKey(after.name), after.emoji, after.locationLabel, after.timeZone, now, access.householdID])
                try record(.householdUpdated, HouseholdChange(householdID: access.householdID), in: database)
            }
            return HouseholdReference(householdID: access.householdID)
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
    /// of every household-owned table cascade from `households`. Admins only; `confirmName`
    /// must repeat the current name exactly. The `household.deleted` event is recorded first
    /// (the change log is not household-owned, so it outlives the household). Members whose
    /// active household it was get their most recently joined other household as active.
    /// - Throws: `BAD_USER_INPUT` with reason `MISMATCH` on `input.confirmName`, `NOT_FOUND`,
    ///   `FORBIDDEN` for members, `CONFLICT` for a reused `clientMutationID`.
    public func deleteHousehold(
        id householdID: String, confirmName: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Departure {
        let now = currentTime()
        let deleted = try await mutate("deleteHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let household = try HouseholdRecord.find(access, in: database)
            guard confirmName == household.name else {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.confirmName", reason: .mismatch,
                    message: "Type the household's name exactly as it is shown to confirm the deletion.")]))
            }
            try record(.householdDeleted, HouseholdChange(householdID: access.householdID), in: database)
            // Whose active household goes with it: they get another one after the delete.
            let activeFor = try database.query(
                """
                SELECT a.user_id FROM members m JOIN active_households a ON a.user_id = m.user_id AND a.household_id = m.household_id
                WHERE m.household_id = ?
                """,
                [access.householdID]
            ).map { row -> String in try row["user_id"] }
            try database.execute("DELETE FROM households WHERE id = ?", [access.householdID])
            for userID in activeFor {
                try ActiveHousehold.reassign(userID: userID, at: now, in: database)
            }
            return HouseholdReference(householdID: access.householdID)
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
        let now = currentTime()
        let switched = try await mutate("setActiveHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
            let previous = try ActiveHousehold.id(userID: viewer.userID, in: database)
            if previous != access.householdID {
                try ActiveHousehold.activate(householdID: access.householdID, userID: viewer.userID, at: now, in: database)
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
    /// - Throws: `BAD_USER_INPUT` on `input.role` when making a child or shadow admin;
    ///   `CONFLICT` with reason `LAST_ADMIN` when demoting the household's last active admin;
    ///   `NOT_FOUND` for a member of a household the viewer is not in; `FORBIDDEN` for members;
    ///   `CONFLICT` for a reused `clientMutationID`.
    public func changeMemberRole(
        memberID: String, to role: MemberRole, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleMember {
        let now = currentTime()
        let changed = try await mutate("changeMemberRole", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(
                viewer: viewer, owning: .members, id: memberID, requiring: .admin, notFound: .memberNotFound, in: database)
            let member = try MemberRecord.find(id: memberID, access, in: database)
            if role == .admin, !member.kind.isAdult {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.role", reason: .notAllowed, message: "Children and shadow members cannot be admins.")]))
            }
            if member.role != role {
                if member.role == .admin, member.status == .active,
                    try Self.activeAdminCount(access, excluding: member.id, in: database) == 0 {
                    throw ServiceError(
                        .conflict, reason: .lastAdmin,
                        "A household needs an admin: make another adult admin before changing this role.")
                }
                try database.execute(
                    "UPDATE members SET role = ?, updated_at = ? WHERE id = ? AND household_id = ?",
                    [role.rawValue, now, member.id, access.householdID])
                try record(
                    .memberRoleChanged, HouseholdChange(householdID: access.householdID, memberID: member.id, userID: member.userID),
                    in: database)
            }
            return MemberReference(householdID: access.householdID, memberID: member.id)
        }
        return try await accessibleMember(changed, viewer: viewer)
    }

    /// How many active admins the household has besides `memberID`.
    private static func activeAdminCount(_ access: HouseholdAccess, excluding memberID: String, in database: Database) throws -> Int {
        try database.scalar(
            Int.self,
            "SELECT count(*) FROM members WHERE household_id = ? AND role = 'admin' AND status = 'active' AND id <> ?",
            [access.householdID, memberID]) ?? 0
    }

    // MARK: - Departures (FR-14, FR-15)

    /// The result of ``removeMember(id:incompleteTasks:viewer:clientMutationID:)``.
    public struct Removal: Sendable {
        /// The removed member's id.
        public var removedMemberID: String
        /// The household, as it is now.
        public var household: AccessibleHousehold
    }

    /// Removes a member (FR-14): joined members only (an invitation is withdrawn with
    /// `revokeInvitation`), never yourself (use ``leaveHousehold(id:incompleteTasks:viewer:clientMutationID:)``).
    /// The choice for their incomplete tasks is stored in `member_departures` and carried by
    /// the `member.removed` event for the chores feature. Admins only; since the caller is an
    /// admin who is not the removed member, an admin always remains.
    /// - Throws: `BAD_USER_INPUT` on `input.memberId` (yourself, an invited member), `NOT_FOUND`,
    ///   `FORBIDDEN` for members, `CONFLICT` for a reused `clientMutationID`.
    public func removeMember(
        id memberID: String, incompleteTasks: IncompleteTaskHandling, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Removal {
        let now = currentTime()
        let removed = try await mutate("removeMember", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(
                viewer: viewer, owning: .members, id: memberID, requiring: .admin, notFound: .memberNotFound, in: database)
            let member = try MemberRecord.find(id: memberID, access, in: database)
            if member.id == access.memberID {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.memberId", reason: .notAllowed, message: "To leave the household yourself, use leaveHousehold.")]))
            }
            if member.status == .invited {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.memberId", reason: .notAllowed,
                    message: "This person has not joined yet: withdraw their invitation with revokeInvitation.")]))
            }
            try depart(member, reason: .removed, incompleteTasks: incompleteTasks, decidedBy: viewer.userID, access, at: now, in: database)
            return MemberReference(householdID: access.householdID, memberID: member.id)
        }
        return Removal(removedMemberID: removed.memberID, household: try await household(id: removed.householdID, viewer: viewer))
    }

    /// Leaves a household (FR-15). The choice for the viewer's incomplete tasks is stored in
    /// `member_departures` and carried by the `member.left` event. When it was their active
    /// household, their most recently joined remaining one becomes active.
    /// - Throws: `CONFLICT` with reason `LAST_ADMIN` for the last active admin while other
    ///   members remain (promote someone first; with only children and shadows left, invite
    ///   another adult or delete the household); `CONFLICT` for the household's only active
    ///   member (delete the household instead); `NOT_FOUND`; `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func leaveHousehold(
        id householdID: String, incompleteTasks: IncompleteTaskHandling, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Departure {
        let now = currentTime()
        let left = try await mutate("leaveHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
            let member = access.member
            let others = try database.query(
                "SELECT kind, role FROM members WHERE household_id = ? AND status = 'active' AND id <> ?",
                [access.householdID, member.id])
            if others.isEmpty {
                throw ServiceError(
                    .conflict, "You are the household's only member: delete the household instead of leaving it.")
            }
            if member.role == .admin, try Self.activeAdminCount(access, excluding: member.id, in: database) == 0 {
                let adultRemains = try others.contains { MemberKind(rawValue: try $0["kind"])?.isAdult == true }
                throw ServiceError(
                    .conflict, reason: .lastAdmin,
                    adultRemains
                        ? "You are the household's last admin: make another adult admin first, then leave."
                        : "You are the household's last admin and its only adult: invite another adult and make them admin, or delete the household.")
            }
            try depart(member, reason: .left, incompleteTasks: incompleteTasks, decidedBy: viewer.userID, access, at: now, in: database)
            return HouseholdReference(householdID: access.householdID)
        }
        return Departure(householdID: left.householdID, activeHousehold: try await activeHousehold(viewer: viewer))
    }

    /// Why a member departs, as `member_departures.reason` stores it.
    private enum DepartureReason: String {
        case left
        case removed

        var eventKind: EventKind {
            switch self {
            case .left: .memberLeft
            case .removed: .memberRemoved
            }
        }
    }

    /// Records the departure of `member` (the task choice, the event) and deletes the member
    /// record, inside the caller's transaction; when it was the user's active household, their
    /// most recently joined remaining one becomes active.
    private func depart(
        _ member: MemberRecord, reason: DepartureReason, incompleteTasks: IncompleteTaskHandling, decidedBy userID: String,
        _ access: HouseholdAccess, at now: Date, in database: Database
    ) throws {
        try database.execute(
            """
            INSERT INTO member_departures (id, household_id, member_id, user_id, reason, task_handling, decided_by, departed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [GlobalID.make(.memberDeparture, now: now).rawValue, access.householdID, member.id, member.userID, reason.rawValue, incompleteTasks.rawValue, userID, now])
        try record(
            reason.eventKind,
            HouseholdChange(householdID: access.householdID, memberID: member.id, userID: member.userID, incompleteTasks: incompleteTasks),
            in: database)
        try database.execute("DELETE FROM members WHERE id = ? AND household_id = ?", [member.id, access.householdID])
        if let userID = member.userID {
            try ActiveHousehold.reassign(userID: userID, at: now, in: database)
        }
    }
}

/// The households of a switch, as ``MutationReplay`` stores them.
private struct ActiveHouseholdReference: Codable {
    var householdID: String
    var previousHouseholdID: String?
}
