import HearthStore

/// The scopes of offline sync: the change-log topics whose rows a user may read, and the objects
/// each scope holds.
///
/// A user reads `user:<me>` (their account, private habits, follows, personal chores, availability events,
/// imported calendars),
/// `followers:<me>` (their habits visible to followers), `followers:<u>` for each user `u` whose
/// follow of theirs is accepted, `household:<h>` for each household they are an active member
/// of, and `share:<s>` for each share of another user's personal chores that reaches them
/// (``ShareSyncScopes``). Every change is recorded in exactly the scope that may see it (a private habit's on its
/// owner's topic, a follower-visible one's on `followers:<owner>`), so reading these topics shows
/// nothing of anything else, not even an id.
enum SyncScopes {
    /// The topics `owner` reads now.
    static func current(_ owner: OwnerScope) throws -> Set<Topic> {
        var topics: Set<Topic> = [.user(owner.key.userID), .followers(owner.key.userID)]
        for row in try owner.query("SELECT followed_id FROM follows WHERE follower_id = {owner} AND status = 'accepted'") {
            topics.insert(.followers(try row["followed_id"]))
        }
        for row in try owner.query("SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active'") {
            topics.insert(.household(try row["household_id"]))
        }
        for row in try owner.query("SELECT s.id FROM chore_shares s WHERE s.user_id <> {owner} AND \(ChoreShares.reachesViewer)") {
            topics.insert(.share(try row["id"]))
        }
        return topics
    }

    /// The ids of the objects in `scopes` now, in id order, after `id` (from the first when `nil`),
    /// at most `limit`: what a scope gained is answered with (as upserts), what a scope lost is
    /// answered with (as tombstones, for whatever the reader can no longer see), and, over every
    /// scope a user reads, a full resync. Which of them the reader may see is decided afterwards,
    /// object by object, by the same lookups as `node(id:)`; topics of no scope (`server`) hold
    /// nothing.
    ///
    /// The objects are a scope's whole content, whoever reads it: for `household:<h>` the
    /// household, its members, chores, tags, instances and completions; for `followers:<u>` `u`'s
    /// habits visible to followers and their events; for `user:<u>` the account, all of `u`'s
    /// habits and events, follows, personal chores, tags, instances and completions, availability events and
    /// imported calendars (files and feeds; their events are read through `importedCalendarEvents`); for
    /// `share:<s>` the share, the chores it covers, their instances and completions.
    static func objects(in scopes: Set<Topic>, after id: String?, limit: Int, in database: Database) throws -> [String] {
        var parts: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        for scope in scopes.sorted() {
            guard let (kind, scopeID) = parse(scope) else { continue }
            let scopeParts = selections(of: kind)
            parts += scopeParts
            arguments += Array(repeating: scopeID, count: scopeParts.reduce(0) { $0 + $1.count { $0 == "?" } })
        }
        guard !parts.isEmpty else { return [] }
        arguments += [id ?? "", limit]
        return try database.query(
            "SELECT id FROM (\(parts.joined(separator: " UNION "))) AS objects WHERE id > ? ORDER BY id LIMIT ?",
            StatementArguments(arguments)
        ).map { try $0["id"] }
    }

    /// A scope's kind (`household`, `followers`, `user`, `share`) and id.
    private static func parse(_ scope: Topic) -> (String, String)? {
        guard let colon = scope.key.firstIndex(of: ":") else { return nil }
        return (String(scope.key[..<colon]), String(scope.key[scope.key.index(after: colon)...]))
    }

    /// The selections of the ids of a scope's objects by the scope's kind, each `?` bound to the
    /// scope's id; none for another kind. Not under a scope of the reader's: a scope's content is
    /// the same whoever reads it, and each id is resolved for the reader afterwards.
    private static func selections(of kind: String) -> [String] {
        switch kind {
        case "household": [
            "SELECT id FROM households WHERE id = ?",
            "SELECT id FROM members WHERE household_id = ?",
            "SELECT id FROM chores WHERE household_id = ? AND deleted_at IS NULL",
            "SELECT id FROM tags WHERE household_id = ?",
            "SELECT id FROM chore_instances WHERE household_id = ? AND chore_id IN (SELECT id FROM chores WHERE deleted_at IS NULL)",
            "SELECT id FROM chore_completions WHERE household_id = ?",
        ]
        case "followers": [
            "SELECT id FROM habits WHERE user_id = ? AND visibility = 'followers'",
            """
            SELECT habit_events.id FROM habit_events JOIN habits ON habits.id = habit_events.habit_id
            WHERE habits.user_id = ? AND habits.visibility = 'followers'
            """,
        ]
        case "user": [
            "SELECT id FROM users WHERE id = ?",
            "SELECT id FROM habits WHERE user_id = ?",
            "SELECT id FROM habit_events WHERE user_id = ?",
            "SELECT id FROM follows WHERE follower_id = ? OR followed_id = ?",
            "SELECT id FROM chores WHERE user_id = ? AND deleted_at IS NULL",
            "SELECT id FROM tags WHERE user_id = ?",
            "SELECT id FROM chore_instances WHERE user_id = ? AND chore_id IN (SELECT id FROM chores WHERE deleted_at IS NULL)",
            "SELECT id FROM chore_completions WHERE user_id = ?",
            "SELECT id FROM availability_events WHERE user_id = ?",
            "SELECT id FROM imported_calendars WHERE user_id = ?",
        ]
        case "share": [
            "SELECT id FROM chore_shares WHERE id = ?",
            ShareSyncScopes.coveredChores,
            "SELECT id FROM chore_instances WHERE chore_id IN (\(ShareSyncScopes.coveredChores))",
            "SELECT id FROM chore_completions WHERE chore_id IN (\(ShareSyncScopes.coveredChores))",
        ]
        default: []
        }
    }
}
