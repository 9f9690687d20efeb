import FoundationEssentials
import HearthDomain
import HearthStore

extension HabitService {
    /// A page of the viewer's habit events, newest first (US 04.01): by day, then by when they
    /// were recorded, then by id, so cursors are stable; narrowed by `filter` (US 04.02, US 04.03,
    /// and `near`: within a radius, by exact distance, still newest first; ``HabitHistoryConditions``).
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100, a cursor this list did not give out,
    ///   a `filter.commentContains` that is no word (``HabitRules/searchWord(_:field:)``), or a
    ///   `filter.near` out of range (`OUT_OF_RANGE` on its member);
    ///   `NOT_FOUND` for a `filter.habitId` that is not the viewer's habit.
    public func habitHistory(
        _ filter: HabitHistoryFilter, viewer: Viewer, first: Int? = nil, after: String? = nil
    ) async throws -> TokenPage<HabitEventRecord> {
        var problems = ProblemCollector()
        let size = problems.check { () throws(FieldProblem) in try TokenPage<HabitEventRecord>.size(first) }
        let cursor = problems.check { () throws(FieldProblem) in try TokenPage<HabitEventRecord>.parts(of: after, count: 3) } ?? nil
        let conditions = historyConditions(of: filter, &problems)
        try problems.throwIfAny()
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            try Self.checkHabit(of: filter, owner)
            let position = cursor == nil ? "" : " AND (e.occurred_on, e.recorded_at, e.id) < (?, ?, ?)"
            let rows = try conditions.rows(
                owner,
                """
                SELECT \(HabitEventRecord.selection) FROM habit_events e LEFT JOIN habit_photos p ON p.id = e.photo_id
                WHERE e.user_id = {owner}\(conditions.sql(database))\(position)
                ORDER BY e.occurred_on DESC, e.recorded_at DESC, e.id DESC
                """,
                conditions.arguments + (cursor ?? []).map { $0 as (any DatabaseValueConvertible)? }, limit: size! + 1)
            let edges = try rows.prefix(size!).map { row in
                (TokenPage<HabitEventRecord>.cursor([try row["occurred_on"], try row["recorded_at"], try row["id"]]), try HabitEventRecord(row: row))
            }
            let history = "FROM habit_events e WHERE e.user_id = {owner}\(conditions.sql(database))"
            let hasPrevious = try cursor.map { parts in
                try conditions.exists(
                    owner, history + " AND (e.occurred_on, e.recorded_at, e.id) >= (?, ?, ?)",
                    conditions.arguments + parts.map { $0 as (any DatabaseValueConvertible)? })
            } ?? false
            let total = try conditions.count(owner, history, conditions.arguments)
            return TokenPage(edges: edges, hasNextPage: rows.count > size!, hasPreviousPage: hasPrevious, totalCount: total)
        }
    }

    /// The located events of the viewer's history narrowed by `filter` as GeoJSON (US 06.02,
    /// ``HabitGeoJSON``): the newest ``HabitsConfiguration/maximumMapFeatures`` of them.
    /// - Throws: as ``habitHistory(_:viewer:first:after:)`` for the filter.
    public func habitHistoryGeoJSON(_ filter: HabitHistoryFilter, viewer: Viewer) async throws -> String {
        var problems = ProblemCollector()
        let conditions = historyConditions(of: filter, &problems)
        try problems.throwIfAny()
        let limit = configuration.maximumMapFeatures
        let features = try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            try Self.checkHabit(of: filter, owner)
            return try conditions.rows(
                owner,
                """
                SELECT \(HabitEventRecord.selection), habits.title AS habit_title
                FROM habit_events e JOIN habits ON habits.id = e.habit_id LEFT JOIN habit_photos p ON p.id = e.photo_id
                WHERE e.user_id = {owner} AND e.latitude IS NOT NULL\(conditions.sql(database))
                ORDER BY e.occurred_on DESC, e.recorded_at DESC, e.id DESC
                """,
                conditions.arguments, limit: limit
            ).map { row in HabitGeoJSON.Feature(event: try HabitEventRecord(row: row), habitTitle: try row["habit_title"]) }
        }
        return try HabitGeoJSON.document(of: features)
    }

    /// The conditions of `filter` (``HabitHistoryConditions``); problems of its values go to
    /// `problems`: those of `near` as `habitEventsNear`'s (``GeoCircle/validated(latitude:longitude:radius:maximumRadius:)``,
    /// the radius at most ``GeoConfiguration/maximumRadius``), on `filter.near.latitude`,
    /// `filter.near.longitude` and `filter.near.radiusMeters`.
    private func historyConditions(of filter: HabitHistoryFilter, _ problems: inout ProblemCollector) -> HabitHistoryConditions {
        var conditions = HabitHistoryConditions()
        if let habitID = filter.habitID {
            conditions.add(" AND e.habit_id = ?", [habitID])
        }
        if let text = filter.commentContains,
           let word = problems.check({ () throws(FieldProblem) in try HabitRules.searchWord(text, field: "filter.commentContains") }) {
            conditions.keep(commentContaining: word)
        }
        if let near = filter.near {
            do {
                let circle = try GeoCircle.validated(
                    latitude: near.latitude, longitude: near.longitude, radius: near.radius, maximumRadius: geo.maximumRadius)
                conditions.keep(within: circle, maximumRanges: geo.maximumCoverRanges)
            } catch {
                for problem in error.problems {
                    problems.add(FieldProblem(field: "filter.near." + problem.field, reason: problem.reason, message: problem.message))
                }
            }
        }
        return conditions
    }

    /// Refuses a `filter.habitId` that is not one of the viewer's habits.
    private static func checkHabit(of filter: HabitHistoryFilter, _ owner: OwnerScope) throws {
        if let habitID = filter.habitID, try HabitRecord.findOwn(id: habitID, owner) == nil { throw notFound("habit") }
    }
}
