import FoundationEssentials
import HearthDomain
import HearthStore

extension VacationService {
    /// Ends the vacation of each of `memberIDs` in `householdID` (FR-23): the one under way, or
    /// else cancels the next scheduled one. A member for themself, an admin for anyone. See the
    /// type for what follows.
    /// - Throws: `NOT_FOUND` for a household the viewer is not in; `FORBIDDEN` (`ADMINS_ONLY`) for a
    ///   member naming anyone but themself; `BAD_USER_INPUT` on `input.memberIds` (`REQUIRED` when
    ///   empty) or `input.memberIds[i]` (`UNKNOWN_VALUE` for no such member, `NOT_ALLOWED` for one
    ///   with no vacation to end); `CONFLICT` for a reused `clientMutationID`.
    public func endVacation(householdID: String, memberIDs: [String], viewer: Viewer, clientMutationID: String? = nil) async throws -> Outcome {
        let reference = try await instances.chores.mutate("endVacation", by: viewer, replaying: clientMutationID) { [self] database, now in
            let household = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            var problems: [FieldProblem] = []
            let named = try Self.named(memberIDs, household, verb: "end", problems: &problems)
            let current = try VacationRecord.current(of: named.compactMap(\.1?.id), household)
            var ending: [VacationRecord] = []
            for (index, member) in named {
                guard let member else { continue }
                let field = "input.memberIds[\(index)]"
                let theirs = current.filter { $0.memberID == member.id }
                guard let vacation = theirs.first(where: { $0.status == .active }) ?? theirs.first else {
                    problems.append(FieldProblem(field: field, reason: .notAllowed, message: "\(member.displayName) is not on vacation."))
                    continue
                }
                if !ending.contains(vacation) { ending.append(vacation) }
            }
            if !problems.isEmpty { throw ServiceError.invalid(InputProblems(problems)) }
            let scope = ChoreAccess(household.access).scope(database)
            for vacation in ending { try finish(vacation, scope, at: now) }
            return Reference(householdID: household.access.householdID, vacationIDs: ending.map(\.id))
        }
        return try await outcome(of: reference, viewer: viewer)
    }

    /// Sets whether members back from vacation take back what was handed to others while they were
    /// away (the household's `reclaimRedistributedOnReturn`, off by default). Admins only.
    /// - Throws: `NOT_FOUND`, `FORBIDDEN` (`ADMINS_ONLY`), `CONFLICT` for a reused `clientMutationID`.
    public func updateVacationSettings(
        householdID: String, reclaimRedistributedOnReturn: Bool, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> HouseholdService.AccessibleHousehold {
        let reference = try await instances.chores.mutate("updateVacationSettings", by: viewer, replaying: clientMutationID) { database, now in
            let household = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            try household.execute(
                "UPDATE households SET reclaim_redistributed_on_return = ?, updated_at = ? WHERE id = {household} AND reclaim_redistributed_on_return <> ?",
                [reclaimRedistributedOnReturn, now, reclaimRedistributedOnReturn])
            return Reference(householdID: household.access.householdID, vacationIDs: [])
        }
        return try await outcome(of: reference, viewer: viewer).household
    }

    /// The household's `reclaimRedistributedOnReturn` (the viewer is a member).
    public func reclaimsRedistributedOnReturn(householdID: String, viewer: Viewer) async throws -> Bool {
        try await pool.readPreferringCallingThread { database in
            try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database).scalar(
                Bool.self, "SELECT reclaim_redistributed_on_return FROM households WHERE id = {household}") ?? false
        }
    }

    /// The vacation of each of `memberIDs` (of households the viewer is in) to show: the one under
    /// way, else the next scheduled one; absent for members with neither.
    public func currentVacations(memberIDs: [String], householdID: String, viewer: Viewer) async throws -> [String: VacationRecord] {
        guard !memberIDs.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            let household = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            var found: [String: VacationRecord] = [:]
            for vacation in try VacationRecord.current(of: memberIDs, household) where found[vacation.memberID]?.status != .active {
                if found[vacation.memberID] == nil || vacation.status == .active { found[vacation.memberID] = vacation }
            }
            return found
        }
    }
}
