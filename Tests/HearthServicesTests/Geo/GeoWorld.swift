import Foundation
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures

/// People with habits and located events written straight into the tables of migration 0022, for
/// the "within 5 km" tests: ana (the viewer), ben whom she follows, cyd whom she asked to follow
/// (not accepted), and dee whom nobody follows. Each has a habit shown to followers and a private one.
struct GeoWorld {
    let harness: AccountsHarness
    let service: GeoService
    /// Viewers by username.
    let viewers: [String: Viewer]
    /// User ids by username.
    let users: [String: String]

    static let people = ["ana", "ben", "cyd", "dee"]

    static func with<T>(configure: (inout GeoConfiguration) -> Void = { _ in }, _ body: (GeoWorld) async throws -> T) async throws -> T {
        try await AccountsHarness.with { harness in
            var viewers: [String: Viewer] = [:]
            var users: [String: String] = [:]
            for name in people {
                let (user, session) = try await harness.register(name)
                users[name] = user.id
                viewers[name] = try await harness.service.authenticate(accessToken: session.accessToken)
            }
            var configuration = GeoConfiguration()
            configure(&configuration)
            let world = GeoWorld(
                harness: harness, service: GeoService(configuration: configuration, pool: harness.pool), viewers: viewers, users: users)
            let owners = users
            try await harness.pool.write { database in
                for name in people {
                    for visibility in ["followers", "private"] {
                        try database.execute(
                            """
                            INSERT INTO habits (id, user_id, title, starts_on, plan, visibility, created_at, updated_at)
                            VALUES (?, ?, 'Walk', '2026-01-01', 127, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
                            """,
                            [Self.habit(name, visibility), owners[name]!, visibility])
                    }
                }
            }
            try await world.follow("ana", "ben", status: "accepted")
            try await world.follow("ana", "cyd", status: "requested")
            return try await body(world)
        }
    }

    static func habit(_ name: String, _ visibility: String) -> String { "hab_\(name)_\(visibility)" }

    /// Records that `follower` asked to follow `followed` (accepted or only requested).
    func follow(_ follower: String, _ followed: String, status: String) async throws {
        let (from, to) = (users[follower]!, users[followed]!)
        try await harness.pool.write { database in
            try database.execute(
                """
                INSERT INTO follows (id, follower_id, followed_id, status, requested_at, accepted_at)
                VALUES (?, ?, ?, ?, '2026-01-01T00:00:00.000Z', ?)
                """,
                ["fol_\(follower)_\(followed)", from, to, status, status == "accepted" ? "2026-01-01T00:00:00.000Z" : nil])
        }
    }

    /// Ends `follower`'s follow of `followed` (what unfollowing does to the row).
    func unfollow(_ follower: String, _ followed: String) async throws {
        try await harness.pool.write { database in
            try database.execute("DELETE FROM follows WHERE id = ?", ["fol_\(follower)_\(followed)"])
        }
    }

    /// One located event.
    struct Event {
        var id: String
        var owner: String
        var visibility: String
        var latitude: Double
        var longitude: Double
        var recordedAt = "2026-06-01T12:00:00.000Z"
    }

    /// Writes the events, their geohash at the stored precision, as the habit services store them.
    func insert(_ events: [Event]) async throws {
        let users = self.users
        try await harness.pool.write { database in
            for event in events {
                try database.execute(
                    """
                    INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, latitude, longitude, geohash, created_at, updated_at)
                    VALUES (?, ?, ?, '2026-06-01', ?, ?, ?, ?, ?, ?)
                    """,
                    [event.id, Self.habit(event.owner, event.visibility), users[event.owner]!, event.recordedAt, event.latitude, event.longitude,
                     Geohash.encode(latitude: event.latitude, longitude: event.longitude), event.recordedAt, event.recordedAt])
            }
        }
    }

    /// The events `viewer` may see in `scope`: their own, and (for the followed) those of habits
    /// shown to followers of the users they follow with an accepted follow.
    static func visible(_ event: Event, to viewer: String, scope: NearbyScope, following: Set<String>) -> Bool {
        switch scope {
        case .mine: event.owner == viewer
        case .following: following.contains(event.owner) && event.visibility == "followers"
        case .both: event.owner == viewer || (following.contains(event.owner) && event.visibility == "followers")
        }
    }
}
