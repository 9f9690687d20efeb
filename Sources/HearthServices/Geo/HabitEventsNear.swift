import FoundationEssentials
import HearthDomain
import HearthStore

/// The one SQL statement of the "within 5 km" query and its exact filter: the grid index's ranges
/// of the circle's cover (``GeohashCover``), the viewer's scope, and ``HabitAudience``'s rule, then
/// the haversine distance of each candidate, nearest first.
///
/// The ranges are rows of a `VALUES` table joined to the events on `geohash >= lower_bound AND
/// geohash < upper_bound`, and the owners a list (`user_id IN (…)`): SQLite then loops over the
/// ranges and seeks `habit_events_grid` (`user_id`, `geohash`) once per range and owner, reading
/// only the owners' events of the cover. Written as `geohash` ranges ORed in the `WHERE`, SQLite
/// planned it on the owners' history index instead and read every event of every owner (20× slower
/// at one million events, tools/bench/geo). Plain SQL that PostgreSQL plans the same way.
enum HabitEventsNear {
    /// The events of `scope` in the cover of `circle` that `viewerID` may see and that lie in the
    /// circle (recorded at or after `since` when given), nearest first, ties by id, at most `limit`.
    static func find(
        _ circle: GeoCircle, scope: NearbyScope, since: Date?, limit: Int, maximumRanges: Int, viewerID: String, in database: Database
    ) throws -> [NearbyHabitEvent] {
        let cover = GeohashCover(circle: circle, maximumRanges: maximumRanges)
        let (sql, arguments) = statement(cover, scope: scope, since: since, viewerID: viewerID)
        var found: [NearbyHabitEvent] = []
        try database.forEachRow(sql, arguments) { row in
            let latitude: Double = try row[3]
            let longitude: Double = try row[4]
            let distance = circle.distance(toLatitude: latitude, longitude: longitude)
            guard distance <= circle.radius else { return }
            found.append(NearbyHabitEvent(eventID: try row[0], habitID: try row[1], userID: try row[2], latitude: latitude, longitude: longitude, distance: distance))
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.eventID.utf8.lexicographicallyPrecedes($1.eventID.utf8) }
        return Array(found.prefix(limit))
    }

    /// The statement reading the cover's ranges for `viewerID` in `scope`, with its arguments.
    static func statement(_ cover: GeohashCover, scope: NearbyScope, since: Date?, viewerID: String) -> (String, StatementArguments) {
        let (ranges, rangeArguments) = cover.rangeRows
        var arguments = rangeArguments
        let followed = "SELECT followed_id FROM follows WHERE follower_id = ? AND status = 'accepted'"
        let owners: String
        switch scope {
        case .mine:
            owners = "?"
            arguments.append(viewerID)
        case .following:
            owners = followed
            arguments.append(viewerID)
        case .both:
            owners = "SELECT ? UNION ALL \(followed)"
            arguments += [viewerID, viewerID]
        }
        arguments += [viewerID, viewerID]
        var sql = """
            WITH ranges (lower_bound, upper_bound) AS (VALUES \(ranges))
            SELECT habit_events.id, habit_events.habit_id, habit_events.user_id, habit_events.latitude, habit_events.longitude
            FROM ranges
            JOIN habit_events ON habit_events.geohash >= ranges.lower_bound AND habit_events.geohash < ranges.upper_bound
            JOIN habits ON habits.id = habit_events.habit_id
            WHERE habit_events.user_id IN (\(owners)) AND \(HabitAudience.habitVisibleToViewer)
            """
        if let since {
            sql += " AND habit_events.recorded_at >= ?"
            arguments.append(since)
        }
        return (sql, StatementArguments(arguments))
    }
}
