import HearthDomain
@testable import HearthServices
import HearthStore
import Testing
import TestFixtures

/// The history's `near` condition seeks the grid index (`habit_events_grid`, migration 0024) once
/// per range of the cover: planned with the ranges ORed on the history's own rows, SQLite read every
/// event of the viewer through the history index instead. Plans, not timings.
struct HabitHistoryNearPlanTests {
    @Test(arguments: [500.0, 5_000, 50_000])
    func theNearConditionSeeksTheGridIndex(radius: Double) async throws {
        try await MigratedDatabase.withPool { pool in
            var conditions = HabitHistoryConditions()
            conditions.keep(within: GeoCircle(latitude: 52.52, longitude: 13.4, radius: radius), maximumRanges: 24)
            let plan = try pool.read { database in
                // The page's statement, with the viewer's id where the owner scope binds it.
                let sql = """
                    SELECT e.id FROM habit_events e WHERE e.user_id = {owner}\(conditions.sql(database))
                    ORDER BY e.occurred_on DESC, e.recorded_at DESC, e.id DESC
                    """.replacing("{owner}", with: "'usr_viewer'")
                return try database.query("EXPLAIN QUERY PLAN \(sql)", StatementArguments(conditions.arguments)).map { try $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("USING INDEX habit_events_grid (user_id=? AND geohash>? AND geohash<?)") }, "\(plan)")
        }
    }
}
