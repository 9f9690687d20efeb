import Foundation
import GraphQL
import Support
import Testing

/// "Within 5 km" through the binary (issue 16, US 06.04.01): `habitEventsNear` answers the
/// viewer's located events and those of the users they follow, nearest first, with haversine
/// distances, as the scope says; private habits of others, unfollowed users and events outside
/// the radius stay out, and a radius over the maximum is refused.
@Suite struct HabitEventsNearEndToEndTests {
    /// The mean Earth radius the distances are measured on, in metres.
    private static let earthRadius = Haversine.earthRadius
    /// The centre of the tests' circles: Lisbon.
    private static let centre = (latitude: 38.7223, longitude: -9.1393)

    static let query = """
        query($latitude: Float!, $longitude: Float!, $radius: Float, $scope: NearbyScope) {
          habitEventsNear(latitude: $latitude, longitude: $longitude, radiusMeters: $radius, scope: $scope) {
            event { id comment habit { title } location { latitude longitude } } distanceMeters
          }
        }
        """

    /// The point `metres` due north (negative: south) of the centre: along a meridian the
    /// great-circle distance is the radius times the latitude difference.
    private static func north(_ metres: Double) -> (latitude: Double, longitude: Double) {
        (centre.latitude + metres / earthRadius * 180 / Double.pi, centre.longitude)
    }

    /// The point `metres` due east along the centre's parallel, at a distance the test measures.
    private static func east(_ metres: Double) -> (latitude: Double, longitude: Double) {
        (centre.latitude, centre.longitude + metres / (earthRadius * cos(centre.latitude * Double.pi / 180)) * 180 / Double.pi)
    }

    private static func location(_ point: (latitude: Double, longitude: Double)) -> [String: JSON] {
        ["location": ["latitude": .double(point.latitude), "longitude": .double(point.longitude)]]
    }

    private static func near(_ server: ServerProcess, scope: String? = nil, radius: Double? = nil, token: String?) throws -> ServerProcess.GraphQLResponse {
        var variables: [String: JSON] = ["latitude": .double(centre.latitude), "longitude": .double(centre.longitude)]
        if let scope { variables["scope"] = .string(scope) }
        if let radius { variables["radius"] = .double(radius) }
        return try server.graphQL(query, variables: variables, token: token)
    }

    @Test func US_06_04_01_habitEventsNearAnswersMineAndFollowedNearestFirstWithDistances() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben, cara) = try server.habitPeople()
        try server.acceptedFollow(of: ben, by: ana)
        let anaRun = try server.habit("Run", as: ana)
        let anaDiary = try server.habit("Diary", as: ana, ["visibility": "PRIVATE"])
        let benSwim = try server.habit("Swim", as: ben)
        let benSecret = try server.habit("Secret", as: ben, ["visibility": "PRIVATE"])
        let caraWalk = try server.habit("Walk", as: cara)
        let points = [
            "ana 2 km": Self.north(2_000), "ana 3 km": Self.east(3_000), "ana diary": Self.north(-4_000), "ana 6 km": Self.north(6_000),
            "ben 1 km": Self.east(-1_000), "ben secret": Self.north(500), "cara": Self.north(100),
        ]
        let habitOf = [
            "ana 2 km": anaRun, "ana 3 km": anaRun, "ana diary": anaDiary, "ana 6 km": anaRun, "ben 1 km": benSwim, "ben secret": benSecret,
            "cara": caraWalk,
        ]
        let ownerOf = ["ana": ana, "ben": ben, "cara": cara]
        for (comment, point) in points {
            let owner = try #require(ownerOf[String(comment.prefix { $0 != " " })])
            _ = try server.habitEvent(of: habitOf[comment]!, as: owner, Self.location(point).merging(["comment": .string(comment)]) { _, new in new })
        }
        _ = try server.habitEvent(of: anaRun, as: ana, ["comment": "no place"])

        /// The comments and distances `scope` answers Ana, nearest first; each distance checked
        /// against the haversine distance of the stored place, to a metre.
        func answer(_ scope: String?) throws -> [String] {
            let response = try Self.near(server, scope: scope, token: ana.token)
            let list = try #require(response.data?["habitEventsNear"], "\(response.json)")
            guard case .array(let entries) = list else { return [] }
            return try entries.map { entry in
                let comment = try #require(entry["event"]?["comment"]?.stringValue)
                let distance = try #require(entry["distanceMeters"]?.doubleValue)
                let place = try #require(points[comment])
                #expect(abs(distance - Haversine.distance(Self.centre, place)) < 1, "\(comment): \(distance)")
                return comment
            }
        }
        #expect(try answer(nil) == ["ben 1 km", "ana 2 km", "ana 3 km", "ana diary"], "BOTH by default: Ben's secret, Cara's and the 6 km one stay out")
        #expect(try answer("BOTH") == ["ben 1 km", "ana 2 km", "ana 3 km", "ana diary"])
        #expect(try answer("MINE") == ["ana 2 km", "ana 3 km", "ana diary"])
        #expect(try answer("FOLLOWING") == ["ben 1 km"])
        let nearest = try Self.near(server, token: ana.token).data?["habitEventsNear"]?[0]
        let nearestDistance = nearest?["distanceMeters"]?.doubleValue ?? 0
        #expect(abs(nearestDistance - 1_000) < 1, "the nominal distance, to a metre")
        #expect(nearest?["event"]?["habit"]?["title"] == "Swim")

        let widest = try Self.near(server, radius: 50_000, token: ana.token)
        #expect(widest.data?["habitEventsNear"]?[4]?["event"]?["comment"] == "ana 6 km", "the maximum radius itself is accepted")
        let refused = try Self.near(server, radius: 50_000.5, token: ana.token)
        #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == "OUT_OF_RANGE", "\(refused.json)")
        #expect(refused.errorExtensions?["field"]?.stringValue == "radiusMeters")
        let signedOut = try Self.near(server, token: String?.none)
        #expect(signedOut.errorCode == "UNAUTHENTICATED")
    }
}
