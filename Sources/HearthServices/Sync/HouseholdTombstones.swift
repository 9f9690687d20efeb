import FoundationEssentials
import HearthDomain
import HearthStore

/// The tombstones a household's deletion leaves (``Tombstones``): the household and everything of
/// it a client may hold that goes with it, on the household's topic, written in the deleting
/// transaction before the cascade removes the rows. Members keep the account they stood for, so
/// the people of the household still see the deletions as `DELETED`.
enum HouseholdTombstones {
    /// Records the tombstones of the household of `scope` and of its members, chores, tags, saved
    /// presets, rewards and parental consents, at `now`.
    static func record(_ scope: HouseholdScope, at now: Date) throws {
        let topic = Topic.household(scope.access.householdID)
        let members = try scope.query("SELECT id, user_id FROM members WHERE household_id = {household}")
        var accounts: [String: String] = [:]
        for member in members {
            if let userID: String = try member["user_id"] { accounts[try member["id"]] = userID }
        }
        try Tombstones.record(try members.map { try $0["id"] }, .member, scope: topic, accounts: accounts, at: now, in: scope.database)
        let owned: [(GlobalID.Kind, String)] = [
            (.chore, "SELECT id FROM chores WHERE household_id = {household} AND deleted_at IS NULL"),
            (.tag, "SELECT id FROM tags WHERE household_id = {household}"),
            (.chorePreset, "SELECT id FROM chore_presets WHERE household_id = {household}"),
            (.reward, "SELECT id FROM rewards WHERE household_id = {household} AND deleted_at IS NULL"),
            (.parentalConsent, "SELECT id FROM parental_consents WHERE household_id = {household}"),
        ]
        for (kind, selection) in owned {
            try Tombstones.record(try scope.query(selection).map { try $0["id"] }, kind, scope: topic, at: now, in: scope.database)
        }
        try Tombstones.record([scope.access.householdID], .household, scope: topic, at: now, in: scope.database)
    }
}
