import HearthStore

extension ChoreAccess {
    /// The access the server's own work on chore `choreID` runs with (planning its instances,
    /// reacting to a change), which has no viewer: a household chore's through
    /// ``HouseholdAccess/scheduled(householdID:in:)``, a personal chore's as its owner's.
    /// - Returns: `nil` when the chore or its household no longer exists.
    static func scheduled(choreID: String, in database: Database) throws -> ChoreAccess? {
        guard let row = try database.queryOne("SELECT household_id, user_id FROM chores WHERE id = ?", [choreID]) else { return nil }
        return try scheduled(householdID: try row["household_id"], userID: try row["user_id"], in: database)
    }

    /// The access scheduled work has to the chores of `householdID`, or of `userID` (personal).
    /// - Returns: `nil` when neither is given or the household no longer exists.
    static func scheduled(householdID: String?, userID: String?, in database: Database) throws -> ChoreAccess? {
        if let householdID {
            return try HouseholdAccess.scheduled(householdID: householdID, in: database).map(ChoreAccess.init)
        }
        return userID.map { ChoreAccess(personal: Owner(scheduledWorkOf: $0)) }
    }
}

extension ChoreRecord {
    /// The chore `id` of `scope`; `nil` when it was deleted (or never was), which scheduled work
    /// skips, while other errors still fail it.
    static func findUnlessDeleted(id: String, _ scope: ChoreScope) throws -> ChoreRecord? {
        do {
            return try find(id: id, scope)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }
}
