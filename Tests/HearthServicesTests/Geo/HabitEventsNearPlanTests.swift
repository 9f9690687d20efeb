import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import Testing
import TestFixtures

/// The "within 5 km" statement seeks the grid index (`habit_events_grid`, migration 0024) for
/// every scope, with and without `since`: planned on the owners' history index instead, it reads
/// every event of every owner. Plans, not timings.
struct HabitEventsNearPlanTests {
    @Test(arguments: NearbyScope.allCases, [false, true])
    func seeksTheGridIndexForEveryScope(scope: NearbyScope, since: Bool) async throws {
        try await MigratedDatabase.withPool { pool in
            let cover = GeohashCover(circle: GeoCircle(latitude: 52.52, longitude: 13.4, radius: 5_000), maximumRanges: 24)
            let (sql, arguments) = HabitEventsNear.statement(
                cover, scope: scope, since: since ? Date(timeIntervalSince1970: 0) : nil, viewerID: "usr_viewer")
            let plan = try pool.read { database in
                try database.query("EXPLAIN QUERY PLAN \(sql)", arguments).map { try $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("USING INDEX habit_events_grid (user_id=? AND geohash>? AND geohash<?)") }, "\(plan)")
        }
    }
}
