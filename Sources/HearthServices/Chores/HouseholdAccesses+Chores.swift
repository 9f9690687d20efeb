import HearthStore

extension HouseholdAccesses {
    /// The viewer's access to the chores of `householdID` (checked once per household, as
    /// ``access(_:)``), or to their personal chores when it is `nil`: for objects read through the
    /// viewer's ``OwnerScope``, which are theirs or of a household they are an active member of.
    /// - Throws: As ``access(_:)``.
    mutating func chores(_ householdID: String?) throws -> ChoreAccess {
        try householdID.map { ChoreAccess(try access($0)) } ?? ChoreAccess(personal: Owner(viewer))
    }

    /// The viewer's access to `chore`, read through their ``OwnerScope`` with the sharing rule
    /// (``ChoreShares/sharedChoreIDs``): their household's or their own, as ``chores(_:)``, or,
    /// for another user's personal chore (which that read found shared with them), read-only.
    mutating func chores(of chore: ChoreRecord) throws -> ChoreAccess {
        try chores(chore.householdID, ownerID: chore.ownerID)
    }

    /// The viewer's access to a row of a chore of `householdID` or, when it is `nil`, of the
    /// personal chores of `ownerID` (a chore, an instance, a completion), read through their
    /// ``OwnerScope`` with the sharing rule: as ``chores(of:)``.
    mutating func chores(_ householdID: String?, ownerID: String?) throws -> ChoreAccess {
        guard householdID == nil, let ownerID, ownerID != viewer.userID else { return try chores(householdID) }
        return ChoreAccess(shared: Owner(sharing: ownerID), with: viewer)
    }
}
