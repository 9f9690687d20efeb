import HearthStore

/// One viewer's accesses to the households a lookup of many objects meets (`node`/`nodes`), each
/// checked once in the lookup's transaction (``HouseholdAccess/check(viewer:householdID:requiring:in:)``)
/// and reused for the other objects of the same household.
struct HouseholdAccesses {
    /// Whose accesses.
    let viewer: Viewer
    private let database: Database
    private var known: [String: HouseholdAccess] = [:]

    /// No access checked yet, for `viewer` in the transaction of `database`.
    init(viewer: Viewer, _ database: Database) {
        self.viewer = viewer
        self.database = database
    }

    /// The viewer's access to `householdID`.
    /// - Throws: As the check: `NOT_FOUND` when they are not an active member.
    mutating func access(_ householdID: String) throws -> HouseholdAccess {
        if let granted = known[householdID] { return granted }
        let granted = try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database)
        known[householdID] = granted
        return granted
    }
}
