import FoundationEssentials
import HearthDomain
import HearthStore

/// Departures (FR-14, FR-15): removing a member and leaving.
///
/// **History survives.** A departure keeps the member record, with status `departed` and the
/// time (`departed_at`), so what the member did (completions, ledgers, leaderboards) keeps its
/// name and its member id. Everything that counts or looks up members counts active (and, for
/// limits, invited) ones only: the members and households limits, `ALREADY_MEMBER`, the
/// last-admin rule, the members list (unless asked for departed ones), the access check and the
/// active household. Current members still see a departed member by id (`node`), as history.
/// Accepting a new invitation to the household revives the same record (``acceptInvitation(_:viewer:clientMutationID:)``).
///
/// **A child's data goes with them.** A departing child or shadow
/// (``MemberKind/isAnonymisedOnDeparture``) is anonymised in the same statement: the display name
/// becomes ``formerMemberName``, the age and any account link are cleared; the parental consent
/// link stays, since the consent record holds no child data and is the evidence the record was
/// kept under. What other areas wrote about the member in free text (ledger notes, reasons for
/// rejecting their completions and requests) is erased in the same transaction by their reactions
/// (``MemberAnonymisation``). After the commit the store is asked to drop its files' older copies of the row
/// (``DatabaseWriter/eraseDeletedContent()``), so the name is gone from the disk too.
extension HouseholdService {
    /// The name a departed child or shadow is shown under once anonymised.
    public static let formerMemberName = "Former member"

    /// The result of ``removeMember(id:incompleteTasks:viewer:clientMutationID:)``.
    public struct Removal: Sendable {
        /// The removed member's id.
        public var removedMemberID: String
        /// The household, as it is now.
        public var household: AccessibleHousehold
    }

    /// Removes a member (FR-14): joined members only (an invitation is withdrawn with
    /// `revokeInvitation`), never yourself (use ``leaveHousehold(id:incompleteTasks:viewer:clientMutationID:)``).
    /// The member record stays, departed (see the type's notes). The choice for their incomplete
    /// tasks is stored in `member_departures` and carried by the `member.removed` event for the
    /// chores feature. Admins only; since the caller is an admin who is not the removed member,
    /// an admin always remains.
    /// - Throws: `BAD_USER_INPUT` on `input.memberId` (yourself, an invited member, one who has
    ///   left), `NOT_FOUND`, `FORBIDDEN` for members, `CONFLICT` for a reused `clientMutationID`.
    public func removeMember(
        id memberID: String, incompleteTasks: IncompleteTaskHandling, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Removal {
        let now = clock.storedNow
        let removed = try await mutate("removeMember", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let (scope, member) = try Self.memberForAdmin(memberID, viewer: viewer, in: database)
            if member.id == scope.access.memberID {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.memberId", reason: .notAllowed, message: "To leave the household yourself, use leaveHousehold.")]))
            }
            if member.status == .invited {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.memberId", reason: .notAllowed,
                    message: "This person has not joined yet: withdraw their invitation with revokeInvitation.")]))
            }
            return try depart(member, reason: .removed, incompleteTasks: incompleteTasks, decidedBy: viewer.userID, scope, at: now)
        }
        await eraseFromFiles(after: removed)
        return Removal(
            removedMemberID: removed.memberID ?? memberID, household: try await household(id: removed.householdID, viewer: viewer))
    }

    /// Leaves a household (FR-15). The member record stays, departed (see the type's notes). The
    /// choice for the viewer's incomplete tasks is stored in `member_departures` and carried by
    /// the `member.left` event. When it was their active household, their most recently joined
    /// remaining one becomes active.
    /// - Throws: `CONFLICT` with reason `LAST_ADMIN` for the last active admin while other
    ///   members remain (promote someone first; with only children and shadows left, invite
    ///   another adult or delete the household); `CONFLICT` for the household's only active
    ///   member (delete the household instead); `NOT_FOUND`; `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func leaveHousehold(
        id householdID: String, incompleteTasks: IncompleteTaskHandling, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Departure {
        let now = clock.storedNow
        let left = try await mutate("leaveHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            let member = scope.access.member
            let others = try scope.query(
                "SELECT kind, role FROM members WHERE household_id = {household} AND status = 'active' AND id <> ?", [member.id])
            if others.isEmpty {
                throw ServiceError(
                    .conflict, "You are the household's only member: delete the household instead of leaving it.")
            }
            if member.role == .admin, try Self.activeAdminCount(scope, excluding: member.id) == 0 {
                let adultRemains = try others.contains { MemberKind(rawValue: try $0["kind"])?.isAdult == true }
                throw ServiceError(
                    .conflict, reason: .lastAdmin,
                    adultRemains
                        ? "You are the household's last admin: make another adult admin first, then leave."
                        : "You are the household's last admin and its only adult: invite another adult and make them admin, or delete the household.")
            }
            return try depart(member, reason: .left, incompleteTasks: incompleteTasks, decidedBy: viewer.userID, scope, at: now)
        }
        await eraseFromFiles(after: left)
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

    /// Records the departure of `member` (the task choice, the event) and marks the member record
    /// departed, anonymised for a child or shadow, inside the caller's transaction; when it was
    /// the user's active household, their most recently joined remaining one becomes active.
    private func depart(
        _ member: MemberRecord, reason: DepartureReason, incompleteTasks: IncompleteTaskHandling, decidedBy userID: String,
        _ scope: HouseholdScope, at now: Date
    ) throws -> DepartureReference {
        let erases = member.kind.isAnonymisedOnDeparture
        try scope.execute(
            """
            INSERT INTO member_departures (id, household_id, member_id, user_id, reason, task_handling, decided_by, departed_at)
            VALUES (?, {household}, ?, ?, ?, ?, ?, ?)
            """,
            [GlobalID.make(.memberDeparture, now: now).rawValue, member.id, erases ? nil : member.userID, reason.rawValue,
             incompleteTasks.rawValue, userID, now])
        if erases {
            try scope.execute(
                """
                UPDATE members SET status = 'departed', departed_at = ?, updated_at = ?, display_name = ?, age = NULL, user_id = NULL
                WHERE id = ? AND household_id = {household}
                """,
                [now, now, Self.formerMemberName, member.id])
        } else {
            try scope.execute(
                "UPDATE members SET status = 'departed', departed_at = ?, updated_at = ? WHERE id = ? AND household_id = {household}",
                [now, now, member.id])
        }
        if let owner = Owner(accountOf: member) {
            try ActiveHousehold.membershipEnded(householdID: member.householdID, at: now, OwnerScope(owner, scope.database))
        }
        // Recorded once the member is departed, so what reacts to it in this transaction (the
        // instances of every-member chores) sees the household as it is after.
        try record(
            reason.eventKind,
            HouseholdChange(householdID: member.householdID, memberID: member.id, userID: member.userID, incompleteTasks: incompleteTasks),
            in: scope.database)
        return DepartureReference(householdID: member.householdID, memberID: member.id, erasedPersonalData: erases)
    }

    /// After a departure that anonymised a member: asks the store to drop what its files still
    /// hold of the overwritten row. Best effort: a failure (readers kept the write-ahead log busy
    /// past the store's timeout) is logged, and the old copies go at the next checkpoint that
    /// truncates the log (at the latest, the one at shutdown).
    private func eraseFromFiles(after departure: DepartureReference) async {
        guard departure.erasedPersonalData == true else { return }
        do {
            try await pool.eraseDeletedContent()
        } catch {
            logger.warning("could not yet erase a departed member's data from the database files", ["error": "\(error)"])
        }
    }
}

/// The member a departure concerned, as ``MutationReplay`` stores it, and whether it anonymised
/// them. (Records written before departures kept members lack `erasedPersonalData`, and those of
/// `leaveHousehold` the member id: a replay reads them as "nothing erased".)
private struct DepartureReference: Codable {
    var householdID: String
    var memberID: String?
    var erasedPersonalData: Bool?
}
