import FoundationEssentials
import HearthStore

/// A habit event of someone the viewer follows, as the following feed and its map show it: the
/// event's row (`habit_events`) with its habit's title and its owner's account (whose public
/// profile, never the email address, is what the API shows).
public struct FollowedHabitEvent: Sendable, Hashable {
    /// The event's id (`hev_…`).
    public var id: String
    /// Its habit (`hab_…`).
    public var habitID: String
    /// The habit's title.
    public var habitTitle: String
    /// Whose it is.
    public var owner: UserRecord
    /// The owner's local calendar day it counts for (`YYYY-MM-DD`).
    public var occurredOn: String
    /// When it was recorded: what the feed orders by, newest first.
    public var recordedAt: Date
    /// The comment; empty when none.
    public var comment: String
    /// Where it happened (degrees, WGS 84), when it was located.
    public var latitude: Double?
    /// Where it happened (degrees, WGS 84), when it was located.
    public var longitude: Double?

    /// The columns ``read(_:in:)`` takes, from `habit_events e` joined with `habits`.
    static let columns = "e.id, e.habit_id, habits.title, e.user_id, e.occurred_on, e.recorded_at, e.comment, e.latitude, e.longitude"

    /// The events of `rows` (of ``columns``) with their owners read in one statement.
    static func read(_ rows: [Row], in database: Database) throws -> [FollowedHabitEvent] {
        let ownerIDs = Set(try rows.map { try $0["user_id"] as String })
        guard !ownerIDs.isEmpty else { return [] }
        let owners = try UserRecord.find(ids: Array(ownerIDs), in: database)
        return try rows.compactMap { row in
            guard let owner = owners[try row["user_id"] as String] ?? nil else { return nil }
            return FollowedHabitEvent(
                id: try row["id"], habitID: try row["habit_id"], habitTitle: try row["title"], owner: owner, occurredOn: try row["occurred_on"],
                recordedAt: try row["recorded_at"], comment: try row["comment"], latitude: try row["latitude"], longitude: try row["longitude"])
        }
    }
}
