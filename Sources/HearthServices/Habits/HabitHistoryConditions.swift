import HearthDomain
import HearthStore

/// A ``HabitHistoryFilter`` as SQL conditions on events aliased `e` (each starting ` AND `, with
/// their arguments) and, for `near`, the circle its rows must lie in; and the reads every history
/// statement makes through them, so the page, its cursors, `hasPreviousPage`, `totalCount` and the
/// map all count the same events.
///
/// **`near`, exactly.** Its SQL keeps the events whose stored geohash lies in the circle's cover
/// (``GeohashCover``: the grid ranges `habitEventsNear` reads, through the index
/// `habit_events_grid`); of those candidates, a row is kept only when its haversine distance from
/// the centre (``GeoCircle/contains(latitude:longitude:)``, the one formula `habitEventsNear`
/// uses) is at most the radius. That test runs in Swift, not SQL: SQLite has no trigonometry unless
/// built with it, and a second formula in SQL could round differently at the edge. So a statement
/// with a circle reads the candidates of the cover in its order (only the viewer's own events,
/// bounded by their history) and applies its `LIMIT`, `count(*)` and `EXISTS` as it keeps rows, in
/// Swift: a page stops reading at its last row, a count reads every candidate's place. Cursors
/// stay the rows' own keys, so paging is exact. Without a circle the statements are the plain SQL
/// ones.
struct HabitHistoryConditions {
    /// One condition: portable SQL, or one whose text is the dialect's (``DialectSQL``).
    private enum Condition {
        case portable(String)
        case commentContains
    }

    /// The conditions, in order.
    private var conditions: [Condition] = []
    /// Their arguments, in order.
    private(set) var arguments: [(any DatabaseValueConvertible)?] = []
    /// The circle rows must lie in, when the filter has `near`.
    private(set) var circle: GeoCircle?

    /// The conditions, each starting ` AND `, in the dialect of `database`.
    func sql(_ database: Database) -> String {
        conditions.map { condition in
            switch condition {
            case .portable(let sql): sql
            case .commentContains: DialectSQL.habitCommentContains(database.dialect)
            }
        }.joined()
    }

    /// Adds the condition `sql` with its `arguments`.
    mutating func add(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?]) {
        conditions.append(.portable(sql))
        self.arguments += arguments
    }

    /// Keeps only events whose comment contains `word` as words (US 04.03), through each store's
    /// full-text index.
    mutating func keep(commentContaining word: String) {
        conditions.append(.commentContains)
        arguments.append(DialectSQL.habitCommentPhrase(word))
    }

    /// Keeps only events within `circle`: those in its cover of at most `maximumRanges` grid ranges
    /// in SQL, then by exact distance as rows are read.
    ///
    /// The cover is a subquery joining the ranges to the viewer's events, as `habitEventsNear`
    /// reads them: SQLite seeks `habit_events_grid` once per range. Written as ranges ORed on `e`,
    /// SQLite read every event of the viewer through the history index instead (3× slower for a
    /// 1 km circle among 20,000 events).
    mutating func keep(within circle: GeoCircle, maximumRanges: Int) {
        let ranges = GeohashCover(circle: circle, maximumRanges: maximumRanges).rangeRows
        add(
            """
             AND e.id IN (SELECT g.id FROM (VALUES \(ranges.sql)) AS ranges
            JOIN habit_events g ON g.geohash >= ranges.column1 AND g.geohash < ranges.column2 WHERE g.user_id = {owner})
            """,
            ranges.arguments)
        self.circle = circle
    }

    /// The first `limit` rows of `sql`, an ordered statement without `LIMIT` whose rows have the
    /// event's `latitude` and `longitude`, that meet the conditions (which `sql` includes).
    func rows(_ owner: OwnerScope, _ sql: String, _ arguments: [(any DatabaseValueConvertible)?], limit: Int) throws -> [Row] {
        guard let circle else { return try owner.query(sql + " LIMIT ?", StatementArguments(arguments + [limit])) }
        var kept: [Row] = []
        try owner.forRows(sql, StatementArguments(arguments), while: { row in
            if try Self.lies(row, in: circle) { kept.append(row) }
            return kept.count < limit
        })
        return kept
    }

    /// How many events `clause` (`FROM habit_events e … WHERE …`, with the conditions) finds.
    func count(_ owner: OwnerScope, _ clause: String, _ arguments: [(any DatabaseValueConvertible)?]) throws -> Int {
        guard circle != nil else { return try owner.scalar(Int.self, "SELECT count(*) \(clause)", StatementArguments(arguments)) ?? 0 }
        return try rows(owner, "SELECT e.latitude, e.longitude \(clause)", arguments, limit: .max).count
    }

    /// Whether `clause` (as for ``count(_:_:_:)``) finds any event.
    func exists(_ owner: OwnerScope, _ clause: String, _ arguments: [(any DatabaseValueConvertible)?]) throws -> Bool {
        guard circle != nil else {
            return try owner.scalar(Bool.self, "SELECT EXISTS (SELECT 1 \(clause))", StatementArguments(arguments)) ?? false
        }
        return try !rows(owner, "SELECT e.latitude, e.longitude \(clause)", arguments, limit: 1).isEmpty
    }

    /// Whether the event of `row` has a place within `circle`.
    private static func lies(_ row: Row, in circle: GeoCircle) throws -> Bool {
        guard let latitude = try row["latitude"] as Double?, let longitude = try row["longitude"] as Double? else { return false }
        return circle.contains(latitude: latitude, longitude: longitude)
    }
}
