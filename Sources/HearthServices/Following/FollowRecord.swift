import FoundationEssentials
import HearthStore

/// Where a follow stands (US 05).
public enum FollowStatus: String, Sendable, CaseIterable {
    /// Asked for, waiting for the followed user's answer: the follower sees nothing yet.
    case requested
    /// Accepted: the follower sees the followed user's non-private habits and their events.
    case accepted
}

/// A follow between two users as either of them sees it: the row (`follows`, migration 0022) with
/// both accounts. What the API shows of the other account is its public profile (username,
/// display name, avatar), never its email address.
public struct FollowRecord: Sendable, Hashable {
    /// The follow's id (`fol_…`).
    public var id: String
    /// Who follows (or asked to).
    public var follower: UserRecord
    /// Who is followed (or was asked).
    public var followed: UserRecord
    /// Where it stands.
    public var status: FollowStatus
    /// When it was asked for.
    public var requestedAt: Date
    /// When it was accepted; `nil` while requested.
    public var acceptedAt: Date?

    /// What lists order it by: when it was accepted, or, while requested, when it was asked for.
    public var listedAt: Date { acceptedAt ?? requestedAt }

    /// The columns of `follows` the readers select, in the order ``read(_:in:)`` takes them.
    static let columns = "id, follower_id, followed_id, status, requested_at, accepted_at"

    /// The follows of `rows` (of ``columns``), with their accounts read in one statement; a row
    /// whose account is gone (deleted in between: the foreign keys cascade) is left out.
    static func read(_ rows: [Row], in database: Database) throws -> [FollowRecord] {
        var userIDs = Set<String>()
        for row in rows {
            userIDs.insert(try row["follower_id"])
            userIDs.insert(try row["followed_id"])
        }
        guard !userIDs.isEmpty else { return [] }
        let users = try UserRecord.find(ids: Array(userIDs), in: database)
        return try rows.compactMap { row in
            guard let follower = users[try row["follower_id"]] ?? nil, let followed = users[try row["followed_id"]] ?? nil else { return nil }
            return FollowRecord(
                id: try row["id"], follower: follower, followed: followed,
                status: FollowStatus(rawValue: try row["status"]) ?? .requested, requestedAt: try row["requested_at"],
                acceptedAt: try row["accepted_at"])
        }
    }
}
