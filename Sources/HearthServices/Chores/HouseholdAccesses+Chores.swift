import HearthStore

extension HouseholdAccesses {
    /// The viewer's access to the chores of `householdID` (checked once per household, as
    /// ``access(_:)``), or to their personal chores when it is `nil`: for objects read through the
    /// viewer's ``OwnerScope``, which are theirs or of a household they are an active member of.
    /// - Throws: As ``access(_:)``.
    mutating func chores(_ householdID: String?) throws -> ChoreAccess {
        try householdID.map { ChoreAccess(try access($0)) } ?? ChoreAccess(personal: Owner(viewer))
    }
}
