import FoundationEssentials
import HearthDomain
import HearthStore

/// "Within 5 km" (issue 16, US 06.04.01): the located habit events of the viewer and of the users
/// they follow that lie within a radius of a point, nearest first, on Hearth's own geohash grid.
///
/// Each located event stores its geohash (``Geohash/storedPrecision`` characters) in
/// `habit_events.geohash`, indexed by `habit_events_grid` (migration 0024). A query covers the
/// circle with grid cells (``GeohashCover``: the finest cells that take at most
/// ``GeoConfiguration/maximumCoverRanges`` index ranges), reads those ranges in one statement
/// limited to the scope and to what ``HabitAudience`` lets the viewer see, and keeps the events
/// whose haversine distance (``GreatCircle``, on the sphere of radius 6,371,008.8 m) is at most
/// the radius. Exact: the cover holds every stored point of the circle, which the property tests
/// check against brute force.
public final class GeoService: Sendable {
    /// Limits.
    public let configuration: GeoConfiguration
    /// The store.
    let pool: any DatabaseWriter

    /// The most entries one query returns, and the count when `first` is not given.
    public static let maximumEntries = 100

    /// Creates the service over the store.
    public init(configuration: GeoConfiguration, pool: any DatabaseWriter) {
        precondition(configuration.maximumCoverRanges >= GeohashCover.minimumRangeLimit, "the cover needs at least 8 ranges")
        self.configuration = configuration
        self.pool = pool
    }

    /// The events of `query`'s scope within its radius that `viewer` may see, nearest first (ties
    /// by id), at most `first`.
    /// - Throws: `BAD_USER_INPUT` (`OUT_OF_RANGE`) for a latitude outside −90…90, a longitude
    ///   outside −180…180, a radius below 0 or above the configured maximum (any of them NaN or
    ///   infinite), or `first` outside 0–100.
    public func habitEventsNear(_ query: NearbyQuery, viewer: Viewer) async throws -> [NearbyHabitEvent] {
        var problems: [FieldProblem] = []
        var circle: GeoCircle?
        do {
            circle = try GeoCircle.validated(
                latitude: query.latitude, longitude: query.longitude, radius: query.radius, maximumRadius: configuration.maximumRadius)
        } catch {
            problems += error.problems
        }
        var limit = Self.maximumEntries
        do { limit = try Self.limit(query.first) } catch { problems += error.problems }
        guard let circle, problems.isEmpty else { throw ServiceError.invalid(InputProblems(problems)) }
        let ranges = configuration.maximumCoverRanges
        let count = limit
        return try await pool.readPreferringCallingThread { database in
            try HabitEventsNear.find(
                circle, scope: query.scope, since: query.since, limit: count, maximumRanges: ranges, viewerID: viewer.userID, in: database)
        }
    }

    /// `first`, checked: 0 to ``maximumEntries``, the maximum when absent.
    static func limit(_ first: Int?) throws(InputProblems) -> Int {
        guard let first else { return maximumEntries }
        guard (0...maximumEntries).contains(first) else {
            throw InputProblems([FieldProblem(field: "first", reason: .outOfRange, message: "Ask for 0 to \(maximumEntries) events at a time.")])
        }
        return first
    }
}
