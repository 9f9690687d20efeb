import HearthDomain
import HearthStore

extension ChoreService {
    /// Who besides admins may create chores in the household `access` grants (FR-25); nobody by default.
    public func choreCreationPolicy(_ access: HouseholdAccess) async throws -> GrantedRule {
        try await pool.readPreferringCallingThread { database in try PermissionGrants.policy(HouseholdScope(access, database)) }
    }

    /// Sets who besides admins may create chores in `householdID` (FR-25): roles (adults of that
    /// role), member kinds, named active members. Admins only.
    /// - Returns: The policy now (also on a replay).
    /// - Throws: `NOT_FOUND` for a household the viewer is not in, or a member that is unknown or
    ///   another household's (alike); `BAD_USER_INPUT` (`NOT_ALLOWED`) for a member who has not
    ///   joined or has left; `FORBIDDEN`; `CONFLICT` for a reused `clientMutationID`.
    public func updateChoreCreationPolicy(
        householdID: String, creators: PermissionRule, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> GrantedRule {
        let updated = try await mutate("updateChoreCreationPolicy", by: viewer, replaying: clientMutationID) { [self] database, _ in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            _ = try ChoreReferences.members(ChoreReferences.ruleMembers(creators, field: "input.creators"), scope)
            try scope.execute("DELETE FROM chore_grants WHERE household_id = {household} AND action = 'create'")
            try PermissionGrants.insert(creators, .create, choreID: nil, scope)
            try households.record(.householdUpdated, HouseholdChange(householdID: scope.access.householdID), in: database)
            return HouseholdReference(householdID: scope.access.householdID)
        }
        return try await choreCreationPolicy(try await households.access(viewer: viewer, householdID: updated.householdID))
    }
}
