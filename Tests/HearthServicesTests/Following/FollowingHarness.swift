import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// A follow service over the households harness, with helpers that write habits and habit events
/// straight into migration 0022's tables (the habits service is another area's) and make follows.
struct FollowingHarness {
    let h: HouseholdsHarness
    let follows: FollowService

    var clock: ManualClock { h.clock }

    /// Calls `body` with a fresh harness; `configure` adjusts the following limits first.
    static func with<T>(configure: (inout FollowingConfiguration) -> Void = { _ in }, _ body: (FollowingHarness) async throws -> T) async throws -> T {
        try await HouseholdsHarness.with { h in
            var configuration = FollowingConfiguration()
            configure(&configuration)
            return try await body(FollowingHarness(h: h, follows: FollowService(configuration: configuration, households: h.service)))
        }
    }

    /// Registers and confirms `username`.
    func user(_ username: String) async throws -> Viewer {
        try await h.confirmedViewer(username)
    }

    /// `follower` follows `followed`, accepted; returns the follow's id.
    @discardableResult
    func follow(_ follower: Viewer, _ followed: String, acceptedBy owner: Viewer) async throws -> String {
        let request = try await follows.requestFollow(username: followed, viewer: follower)
        return try await follows.acceptFollowRequest(id: request.id, viewer: owner).id
    }

    /// A habit of `owner`'s, written with SQL.
    func habit(_ title: String, of owner: Viewer, private isPrivate: Bool = false) throws -> String {
        let id = GlobalID.make(.habit, now: clock.now).rawValue
        try h.pool.write { database in
            try database.execute(
                """
                INSERT INTO habits (id, user_id, title, starts_on, plan, visibility, created_at, updated_at)
                VALUES (?, ?, ?, '2026-01-01', 127, ?, ?, ?)
                """,
                [id, owner.userID, title, isPrivate ? "private" : "followers", clock.now, clock.now])
        }
        return id
    }

    /// An event of `habit` (of `owner`'s) recorded now, written with SQL; located when `at` is given.
    @discardableResult
    func event(of habit: String, by owner: Viewer, comment: String = "", at place: (latitude: Double, longitude: Double)? = nil) throws -> String {
        let id = GlobalID.make(.habitEvent, now: clock.now).rawValue
        let geohash = place.map { Geohash.encode(latitude: $0.latitude, longitude: $0.longitude, precision: Geohash.storedPrecision) }
        try h.pool.write { database in
            try database.execute(
                """
                INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, comment, latitude, longitude, geohash, created_at, updated_at)
                VALUES (?, ?, ?, '2026-01-02', ?, ?, ?, ?, ?, ?, ?)
                """,
                [id, habit, owner.userID, clock.now, comment, place?.latitude, place?.longitude, geohash, clock.now, clock.now])
        }
        return id
    }

    /// Expects `body` to throw `expected`. (A closure written inside `#expect(await …)` may run
    /// another closure of the test in its place with this toolchain; kept outside the macro here.)
    func expectRefusal<T>(_ expected: ServiceError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T) async {
        let refusal = await refusal(body)
        #expect(refusal == expected, sourceLocation: sourceLocation)
    }

    /// The error `body` throws, as a service error; `nil` when it succeeds. Call it outside `#expect`.
    func refusal<T>(_ body: () async throws -> T) async -> ServiceError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? ServiceError
        }
    }
}
