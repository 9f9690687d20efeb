import Foundation
import GraphQL
import TestPython
import Testing

/// The following feed and its map through the binary (issue 16, US 06.03), and US 05's promise
/// that an ended follow takes effect at once: named by user story, every refusal included.
@Suite struct FollowingFeedTests {
    /// The feed's query: each event with its habit and whose it is.
    private static let feedQuery = """
        query($since: DateTime, $first: Int, $after: String) { followingFeed(since: $since, first: $first, after: $after) {
          edges { cursor node { id comment occurredOn location { latitude longitude } habit { title owner { username email } } } }
          pageInfo { hasNextPage endCursor } } }
        """

    /// The ids of `person`'s feed, newest first (asserting it answered).
    private static func feedIDs(_ server: ServerProcess, as person: ServerProcess.Person) throws -> [String] {
        let feed = try server.graphQL(feedQuery, token: person.token)
        guard case .array(let edges)? = feed.data?["followingFeed"]?["edges"] else {
            Issue.record("no feed: \(feed.json)")
            return []
        }
        return edges.compactMap { $0["node"]?["id"]?.stringValue }
    }

    /// `query` of `id` (`habit`, `habitEvent`) as `person`: its error code, nil when it answered.
    private static func readError(_ field: String, _ id: String, _ server: ServerProcess, as person: ServerProcess.Person) throws -> String? {
        try server.graphQL("query($id: ID!) { \(field)(id: $id) { id } }", variables: ["id": .string(id)], token: person.token).errorCode
    }

    @Test func US_06_03_01_theFeedShowsTheRecentEventsOfAcceptedFollowsNewestFirstAndTheirMapAsGeoJSON() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben"), cara = try server.person("cara")
        try server.follow(ben, by: ana)
        #expect(try server.requestFollow("cara", as: ana).errorCode == nil)
        let run = try server.habit("Run", as: ben), diary = try server.habit("Diary", as: ben, ["visibility": "PRIVATE"])
        let first = try server.habitEvent(of: run, as: ben, ["comment": "Park loop", "location": ["latitude": 38.7223, "longitude": -9.1393]])
        let secret = try server.habitEvent(of: diary, as: ben, ["location": ["latitude": 1, "longitude": 2]])
        let second = try server.habitEvent(of: run, as: ben, ["comment": "Indoors"])
        let caraEvent = try server.habitEvent(of: try server.habit("Swim", as: cara), as: cara, ["location": ["latitude": 3, "longitude": 4]])
        _ = try server.habitEvent(of: try server.habit("Mine", as: ana), as: ana)

        let feed = try server.graphQL(Self.feedQuery, token: ana.token)
        let edges = try #require(feed.data?["followingFeed"]?["edges"], "\(feed.json)")
        #expect(try Self.feedIDs(server, as: ana) == [second, first])
        let newest = try #require(edges[1]?["node"])
        #expect(newest["comment"] == "Park loop" && newest["location"]?["longitude"] == .double(-9.1393))
        #expect(newest["habit"]?["title"] == "Run" && newest["habit"]?["owner"]?["username"] == "ben" && newest["habit"]?["owner"]?["email"] == .null)
        // Pages: one at a time.
        let page = try server.graphQL(Self.feedQuery, variables: ["first": 1], token: ana.token)
        let cursor = try #require(page.data?["followingFeed"]?["pageInfo"]?["endCursor"]?.stringValue)
        #expect(page.data?["followingFeed"]?["pageInfo"]?["hasNextPage"] == true)
        let next = try server.graphQL(Self.feedQuery, variables: ["first": 1, "after": .string(cursor)], token: ana.token)
        #expect(next.data?["followingFeed"]?["edges"]?[0]?["node"]?["id"]?.stringValue == first)
        // What is not Ana's to see stays NOT_FOUND: a private habit's event, someone she only asked to follow.
        #expect(try Self.readError("habitEvent", secret, server, as: ana) == "NOT_FOUND")
        #expect(try Self.readError("habitEvent", caraEvent, server, as: ana) == "NOT_FOUND")

        // The map: the field and the HTTP endpoint answer the same GeoJSON, with the one located event.
        let field = try server.graphQL("{ followingFeedGeoJSON }", token: ana.token)
        let fieldDocument = try #require(field.data?["followingFeedGeoJSON"]?.stringValue, "\(field.json)")
        let http = try server.get("/following/feed.geojson", headers: "Authorization: Bearer \(ana.token)\r\n")
        #expect(http.status == 200 && http.headers["Content-Type"] == "application/geo+json")
        #expect(String(decoding: http.body, as: UTF8.self) == fieldDocument)
        let lines = try TestPython.runScript(
            """
            import json, sys
            document = json.loads(sys.argv[1])
            assert document["type"] == "FeatureCollection", document
            for feature in document["features"]:
                p = feature["properties"]
                print(feature["geometry"]["type"], feature["geometry"]["coordinates"], p["username"], p["displayName"], p["habitTitle"], p["occurredOn"] != "", p["comment"], "email" in p)
            """, [fieldDocument])
        #expect(lines == ["Point [-9.1393, 38.7223] ben ben Run True Park loop False"])
    }

    @Test func US_06_03_01_theFeedAndItsMapRefuseWhatTheyCannotAnswer() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--following-feed-days", "5", "--following-feed-max-days", "10"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let tooFar = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-11 * 86_400))
        let refused = try server.graphQL(Self.feedQuery, variables: ["since": .string(tooFar)], token: ana.token)
        #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == "OUT_OF_RANGE" && refused.errorExtensions?["field"] == "since")
        let nineDays = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-9 * 86_400))
        #expect(try server.graphQL(Self.feedQuery, variables: ["since": .string(nineDays)], token: ana.token).errorCode == nil)
        #expect(try server.graphQL("query($s: DateTime) { followingFeedGeoJSON(since: $s) }", variables: ["s": .string(tooFar)], token: ana.token)
            .errorCode == "BAD_USER_INPUT")
        #expect(try server.graphQL(Self.feedQuery, variables: ["first": 101], token: ana.token).errorCode == "BAD_USER_INPUT")
        #expect(try server.graphQL(Self.feedQuery).errorCode == "UNAUTHENTICATED")
        #expect(try server.get("/following/feed.geojson").status == 401)
        let auth = "Authorization: Bearer \(ana.token)\r\n"
        #expect(try server.get("/following/feed.geojson?since=\(tooFar)", headers: auth).status == 400)
        #expect(try server.get("/following/feed.geojson?since=yesterday", headers: auth).status == 400)
        let empty = try server.get("/following/feed.geojson?since=\(nineDays)", headers: auth)
        #expect(empty.status == 200 && String(decoding: empty.body, as: UTF8.self) == #"{"features":[],"type":"FeatureCollection"}"#)
    }

    @Test func US_05_unfollowingOrRemovingAFollowerHidesTheirEventsAtOnceEverywhere() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben")
        let follow = try server.follow(ben, by: ana)
        let run = try server.habit("Run", as: ben)
        let event = try server.habitEvent(of: run, as: ben, ["location": ["latitude": 10, "longitude": 20]])
        func seen() throws -> [String?] {
            let map = try server.graphQL("{ followingFeedGeoJSON }", token: ana.token).data?["followingFeedGeoJSON"]?.stringValue ?? ""
            return [try Self.feedIDs(server, as: ana).first, try Self.readError("habit", run, server, as: ana),
                    try Self.readError("habitEvent", event, server, as: ana), map.contains(event) ? "mapped" : nil]
        }
        #expect(try seen() == [event, nil, nil, "mapped"])
        #expect(try server.answerFollow("unfollow", follow, as: ana).errorCode == nil)
        #expect(try seen() == [nil, "NOT_FOUND", "NOT_FOUND", nil])
        let again = try server.follow(ben, by: ana)
        #expect(try seen() == [event, nil, nil, "mapped"])
        #expect(try server.answerFollow("removeFollower", again, as: ben).errorCode == nil)
        #expect(try seen() == [nil, "NOT_FOUND", "NOT_FOUND", nil])
    }
}
