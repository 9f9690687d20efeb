import FoundationEssentials
import HearthDomain
import HearthStore

extension FollowService {
    /// Which follows a list holds.
    public enum FollowList: Sendable, CaseIterable {
        /// Accepted follows of the viewer (`followers`), most recently accepted first.
        case followers
        /// Accepted follows the viewer made (`following`), most recently accepted first.
        case following
        /// Requests waiting for the viewer's answer (`followRequests`), newest first.
        case incomingRequests
        /// Requests the viewer made that wait for an answer (`sentFollowRequests`), newest first.
        case sentRequests

        /// The condition on `follows` (with `{owner}`, the viewer) and its time column.
        var condition: (sql: String, time: String) {
            switch self {
            case .followers: ("followed_id = {owner} AND status = 'accepted'", "accepted_at")
            case .following: ("follower_id = {owner} AND status = 'accepted'", "accepted_at")
            case .incomingRequests: ("followed_id = {owner} AND status = 'requested'", "requested_at")
            case .sentRequests: ("follower_id = {owner} AND status = 'requested'", "requested_at")
            }
        }
    }

    /// A page of the follows `list` names for `viewer`, newest first: the first `first` (at most
    /// 100, 100 when `nil`) after `after`.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor this list did not give out.
    public func follows(_ list: FollowList, viewer: Viewer, first: Int? = nil, after: String? = nil) async throws -> InstancePage<FollowRecord> {
        let (size, cursor) = try InstanceCursor.page(first: first, after: after, kind: .follow, maximum: InstancePage<FollowRecord>.maximumSize)
        let (condition, time) = list.condition
        let (older, arguments) = InstanceCursor.older(than: cursor, columns: "\(time), id")
        return try await pool.readPreferringCallingThread { database in
            let rows = try OwnerScope(Owner(viewer), database).query(
                "SELECT \(FollowRecord.columns) FROM follows WHERE \(condition)\(older) ORDER BY \(time) DESC, id DESC LIMIT ?",
                StatementArguments(arguments + [size + 1]))
            let follows = try FollowRecord.read(rows, in: database)
            return InstancePage(reading: follows, size: size, after: cursor) { InstanceCursor(time: $0.listedAt, id: $0.id) }
        }
    }
}
