import FoundationEssentials
import HearthStore

/// The rules of each user's active household (FR-11, FR-17, table `active_households`), kept
/// by the service inside the caller's write transaction. Until migration 0010 SQLite triggers
/// kept them; business rules live in services so that every database gets them alike
/// (docs/architecture.md, "Portable SQL"). A user's active household is theirs: every statement
/// goes through their ``OwnerScope``.
///
/// - At most one row per user (the table's primary key), and only for an active membership of
///   theirs: the foreign key makes it a membership, and every function here writes only a
///   membership the caller found active or that it selects as active itself.
/// - A user's first household becomes their active one: ``activateIfNone(householdID:at:_:)``
///   after every change that makes a user an active member (creating a household, accepting
///   an invitation).
/// - When the active membership ends, ``membershipEnded(householdID:at:_:)`` removes the row
///   (a departure keeps the member record, so no cascade does) and activates the user's most
///   recently joined remaining household; after a household's deletion, whose cascade removed the
///   rows, ``reassign(at:_:)`` does the second half. A user with no household has no row.
///
/// Switching to another household does not record the change here: the caller records
/// `user.active_household_changed` (automatic reassignments record nothing, as before).
enum ActiveHousehold {
    /// The id of the owner's active household; `nil` when they belong to none.
    static func id(_ owner: OwnerScope) throws -> String? {
        try owner.scalar(String.self, "SELECT household_id FROM active_households WHERE user_id = {owner}")
    }

    /// Makes `householdID` the owner's active household, replacing the previous one in the same
    /// statement. The caller has checked that the owner is an active member of it.
    static func activate(householdID: String, at now: Date, _ owner: OwnerScope) throws {
        try owner.execute(
            """
            INSERT INTO active_households (user_id, household_id, activated_at) VALUES ({owner}, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET household_id = excluded.household_id, activated_at = excluded.activated_at
            """,
            [householdID, now])
    }

    /// Makes `householdID`, of which the owner just became an active member, their active
    /// household when they have none: their first household.
    static func activateIfNone(householdID: String, at now: Date, _ owner: OwnerScope) throws {
        try owner.execute(
            "INSERT INTO active_households (user_id, household_id, activated_at) VALUES ({owner}, ?, ?) ON CONFLICT (user_id) DO NOTHING",
            [householdID, now])
    }

    /// After the owner's membership of `householdID` ended (they left or were removed): when it
    /// was their active household, activates the most recently joined one they are still an
    /// active member of, if any.
    static func membershipEnded(householdID: String, at now: Date, _ owner: OwnerScope) throws {
        try owner.execute("DELETE FROM active_households WHERE user_id = {owner} AND household_id = ?", [householdID])
        try reassign(at: now, owner)
    }

    /// After one of the owner's memberships ended: when they have no active household (it went
    /// with that membership), activates the most recently joined household they are still an
    /// active member of, if any.
    static func reassign(at now: Date, _ owner: OwnerScope) throws {
        try owner.execute(
            """
            INSERT INTO active_households (user_id, household_id, activated_at)
            SELECT user_id, household_id, ? FROM members WHERE user_id = {owner} AND status = 'active'
            ORDER BY joined_at DESC, id DESC LIMIT 1
            ON CONFLICT (user_id) DO NOTHING
            """,
            [now])
    }
}
