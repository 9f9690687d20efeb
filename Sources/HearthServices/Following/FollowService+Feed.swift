import FoundationEssentials
import HearthDomain
import HearthStore

extension FollowService {
    /// A page of the following feed (US 06.03): events of the users `viewer` follows (accepted
    /// follows, non-private habits: ``HabitAudience``), recorded at or after `since` (the last
    /// ``FollowingConfiguration/defaultFeedDays`` days when `nil`), most recently recorded first.
    /// Each read checks the follows anew, so an unfollow or a removal shows at the next read.
    /// - Throws: `BAD_USER_INPUT` for `since` further back than ``FollowingConfiguration/maximumFeedDays``
    ///   (`OUT_OF_RANGE`), `first` outside 0–100 or a cursor this feed did not give out.
    public func feed(viewer: Viewer, since: Date? = nil, first: Int? = nil, after: String? = nil) async throws -> InstancePage<FollowedHabitEvent> {
        let since = try feedStart(since)
        let (size, cursor) = try InstanceCursor.page(
            first: first, after: after, kind: .habitEvent, maximum: InstancePage<FollowedHabitEvent>.maximumSize)
        let (older, arguments) = InstanceCursor.older(than: cursor, columns: "e.recorded_at, e.id")
        return try await pool.readPreferringCallingThread { database in
            let events = try Self.followedEvents(viewer: viewer, since: since, condition: older, arguments, limit: size + 1, in: database)
            return InstancePage(reading: events, size: size, after: cursor) { InstanceCursor(time: $0.event.recordedAt, id: $0.event.id) }
        }
    }

    /// The located events of the feed since `since` (as ``feed(viewer:since:first:after:)``),
    /// most recently recorded first, at most ``FollowingConfiguration/maximumMapEvents``: what
    /// the map of followed participants' recent events (US 06.03) shows.
    /// - Throws: `BAD_USER_INPUT` for `since` further back than the feed may reach.
    public func feedMap(viewer: Viewer, since: Date? = nil) async throws -> [FollowedHabitEvent] {
        let since = try feedStart(since)
        let limit = configuration.maximumMapEvents
        return try await pool.readPreferringCallingThread { database in
            try Self.followedEvents(viewer: viewer, since: since, condition: " AND e.latitude IS NOT NULL", [], limit: limit, in: database)
        }
    }

    /// ``feedMap(viewer:since:)`` as a GeoJSON document (``HabitGeoJSON``), each feature naming
    /// whose event it is (US 06.03).
    /// - Throws: `BAD_USER_INPUT` for `since` further back than the feed may reach.
    public func feedGeoJSON(viewer: Viewer, since: Date? = nil) async throws -> String {
        try HabitGeoJSON.document(of: try await feedMap(viewer: viewer, since: since).map {
            HabitGeoJSON.Feature(event: $0.event, habitTitle: $0.habitTitle, owner: $0.owner)
        })
    }

    /// `since` checked against the feed's reach, or the default start.
    /// - Throws: `BAD_USER_INPUT` (`OUT_OF_RANGE` on `since`) for one further back than allowed.
    func feedStart(_ since: Date?) throws -> Date {
        let now = clock.now
        let day = 86_400.0
        guard let since else { return now.addingTimeInterval(-Double(configuration.defaultFeedDays) * day) }
        guard since >= now.addingTimeInterval(-Double(configuration.maximumFeedDays) * day) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "since", reason: .outOfRange, message: "The feed reaches back at most \(configuration.maximumFeedDays) days.")]))
        }
        return since
    }

    /// The events of users `viewer` follows through accepted follows, visible to them
    /// (``HabitAudience``), recorded at or after `since` and meeting `condition` (starting with
    /// ` AND `, on `e`, with `arguments`), most recently recorded first, at most `limit`.
    static func followedEvents(
        viewer: Viewer, since: Date, condition: String, _ arguments: [(any DatabaseValueConvertible)?], limit: Int, in database: Database
    ) throws -> [FollowedHabitEvent] {
        let rows = try OwnerScope(Owner(viewer), database).query(
            """
            SELECT \(FollowedHabitEvent.columns)
            FROM follows f JOIN habit_events e ON e.user_id = f.followed_id JOIN habits ON habits.id = e.habit_id
                LEFT JOIN habit_photos p ON p.id = e.photo_id
            WHERE f.follower_id = {owner} AND f.status = 'accepted' AND (habits.user_id = {owner} OR \(HabitAudience.followedByScopeOwner))
                AND e.recorded_at >= ?\(condition)
            ORDER BY e.recorded_at DESC, e.id DESC LIMIT ?
            """,
            StatementArguments([since] + arguments + [limit]))
        return try FollowedHabitEvent.read(rows, in: database)
    }
}
