import FoundationEssentials
import HearthStore

/// The rules of each user's active household (FR-11, FR-17, table `active_households`), kept
/// by the service inside the caller's write transaction. Until migration 0010 SQLite triggers
/// kept them; business rules live in services so that every database gets them alike
/// (docs/architecture.md, "Portable SQL").
///
/// - At most one row per user (the table's primary key), and only for an active membership of
///   theirs: the foreign key makes it a membership, and every function here writes only a
///   membership the caller found active or that it selects as active itself.
/// - A user's first household becomes their active one: ``activateIfNone(householdID:userID:at:in:)``
///   after every change that makes a user an active member (creating a household, accepting
///   an invitation).
/// - When the active membership ends (leaving, removal, the household's deletion) the foreign
///   key's cascade removes the row, and ``reassign(userID:at:in:)`` activates the user's most
///   recently joined remaining household; a user with none has no row.
///
/// Switching to another household does not record the change here: the caller records
/// `user.active_household_changed` (automatic reassignments record nothing, as before).
enum ActiveHousehold {
    /// The id of `userID`'s active household; `nil` when they belong to none.
    static func id(userID: String, in database: Database) throws -> String? {
        try database.scalar(String.self, "SELECT household_id FROM active_households WHERE user_id = ?", [userID])
    }

    /// Makes `householdID` the user's active household, replacing the previous one in the same
    /// statement. The caller has checked that the user is an active member of it.
    static func activate(householdID: String, userID: String, at now: Date, in database: Database) throws {
        try database.execute(
            """
            INSERT INTO active_households (user_id, household_id, activated_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET household_id = excluded.household_id, activated_at = excluded.activated_at
            """,
            [userID, householdID, now])
    }

    /// Makes `householdID`, of which the user just became an active member, their active
    /// household when they have none: their first household.
    static func activateIfNone(householdID: String, userID: String, at now: Date, in database: Database) throws {
        try database.execute(
            "INSERT INTO active_households (user_id, household_id, activated_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
            [userID, householdID, now])
    }

    /// After one of the user's memberships ended: when it was their active household (their row
    /// went with it), activates the most recently joined household they are still an active
    /// member of, if any.
    static func reassign(userID: String, at now: Date, in database: Database) throws {
        try database.execute(
            """
            INSERT INTO active_households (user_id, household_id, activated_at)
            SELECT user_id, household_id, ? FROM members WHERE user_id = ? AND status = 'active'
            ORDER BY joined_at DESC, id DESC LIMIT 1
            ON CONFLICT (user_id) DO NOTHING
            """,
            [now, userID])
    }
}
