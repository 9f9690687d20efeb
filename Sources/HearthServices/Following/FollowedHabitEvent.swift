import FoundationEssentials
import HearthStore

/// A habit event of someone the viewer follows, as the following feed and its map show it: the
/// event (``HabitEventRecord``) with its habit's title and its owner's account (whose public
/// profile, never the email address, is what the API shows).
public struct FollowedHabitEvent: Sendable, Hashable {
    /// The event.
    public var event: HabitEventRecord
    /// Its habit's title.
    public var habitTitle: String
    /// Whose it is.
    public var owner: UserRecord

    /// The columns ``read(_:in:)`` takes, from `habit_events e` joined with `habits` and its photo `p`.
    static let columns = "\(HabitEventRecord.selection), habits.title AS habit_title"

    /// The events of `rows` (of ``columns``) with their owners read in one statement.
    static func read(_ rows: [Row], in database: Database) throws -> [FollowedHabitEvent] {
        let events = try rows.map { (event: try HabitEventRecord(row: $0), habitTitle: try $0["habit_title"] as String) }
        let ownerIDs = Set(events.map(\.event.userID))
        guard !ownerIDs.isEmpty else { return [] }
        let owners = try UserRecord.find(ids: Array(ownerIDs), in: database)
        return events.compactMap { event, habitTitle in
            guard let owner = owners[event.userID] ?? nil else { return nil }
            return FollowedHabitEvent(event: event, habitTitle: habitTitle, owner: owner)
        }
    }
}
