import Foundation
import GraphQL
import Testing

/// The history near a point through the binary (issue 16, US 06.02): `habitHistory(filter: { near })`
/// lists exactly the viewer's events within the radius, compared with brute force over random
/// points (haversine computed here apart from the server's), newest first through its cursors
/// and counted; the GeoJSON field and `GET /habits/history.geojson?nearLatitude=…` answer the same
/// events; a circle out of range is refused on the member it names, at its edges.
@Suite struct HabitHistoryNearEndToEndTests {
    /// The centre the events are planted around: Lisbon.
    private static let centre = (latitude: 38.7223, longitude: -9.1393)

    /// The ids of `person`'s history with `filter`, paging 5 at a time, and the `totalCount` of every page.
    private static func ids(_ server: ServerProcess, _ filter: [String: JSON], as person: ServerProcess.Person) throws -> (ids: [String], totals: Set<Int>) {
        var ids: [String] = []
        var totals: Set<Int> = []
        var after: String?
        repeat {
            let response = try server.habitHistory(filter, first: 5, after: after, as: person)
            let page = try #require(response.data?["habitHistory"], "\(response.json)")
            guard case .array(let edges)? = page["edges"] else { break }
            ids += edges.compactMap { $0["node"]?["id"]?.stringValue }
            if case .int(let total)? = page["totalCount"] { totals.insert(total) }
            #expect(page["pageInfo"]?["hasPreviousPage"] == .bool(after != nil))
            after = page["pageInfo"]?["hasNextPage"] == true ? page["pageInfo"]?["endCursor"]?.stringValue : nil
        } while after != nil
        return (ids, totals)
    }

    /// The feature ids of a GeoJSON document.
    private static func featureIDs(_ document: [UInt8]) throws -> [String] {
        guard case .array(let features)? = try JSON(parsing: document)["features"] else { return [] }
        return features.compactMap { $0["id"]?.stringValue }
    }

    /// `habitHistory` with `near` as `person`: the first error's extensions (null when it answered).
    private static func refusal(_ server: ServerProcess, _ near: [String: JSON], as person: ServerProcess.Person) throws -> JSON? {
        let response = try server.habitHistory(["near": ServerProcess.input(near)["input"]!], first: 1, as: person)
        return response.errorExtensions
    }

    @Test func US_06_02_02_theHistoryNearAPointHoldsExactlyTheEventsWithinTheRadiusNewestFirst() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let habits = [try server.habit("Run", as: ana), try server.habit("Walk", as: ana)]
        var random = SystemRandomNumberGenerator()
        // Random places within 12 km of the centre (uniform in latitude and longitude offsets), a few
        // days, two habits; two events without a place; Ben's events at the centre are not Ana's history.
        for index in 0..<36 {
            let latitude = Self.centre.latitude + Double.random(in: -0.11...0.11, using: &random)
            let longitude = Self.centre.longitude + Double.random(in: -0.14...0.14, using: &random)
            _ = try server.habitEvent(of: habits[index % 2], as: ana, [
                "occurredOn": .string("2026-01-0\(5 + index % 4)"), "comment": .string("e\(index)"),
                "location": ["latitude": .double(latitude), "longitude": .double(longitude)],
            ])
        }
        for index in 0..<2 { _ = try server.habitEvent(of: habits[index], as: ana, ["comment": "no place"]) }
        let swim = try server.habit("Swim", as: ben)
        _ = try server.habitEvent(of: swim, as: ben, ["location": ["latitude": .double(Self.centre.latitude), "longitude": .double(Self.centre.longitude)]])

        // Ana's whole history, newest first, with the places as stored.
        let all = try server.habitHistory(first: 100, as: ana)
        guard case .array(let edges)? = all.data?["habitHistory"]?["edges"] else {
            Issue.record("no history: \(all.json)")
            return
        }
        #expect(edges.count == 38)
        let events = edges.compactMap { edge -> (id: String, habitID: String, place: (latitude: Double, longitude: Double)?)? in
            guard let id = edge["node"]?["id"]?.stringValue, let habitID = edge["node"]?["habit"]?["id"]?.stringValue else { return nil }
            let location = edge["node"]?["location"]
            guard let latitude = location?["latitude"]?.doubleValue, let longitude = location?["longitude"]?.doubleValue else { return (id, habitID, nil) }
            return (id, habitID, (latitude, longitude))
        }
        var circles: [(latitude: Double, longitude: Double, radius: Double?)] = [(Self.centre.latitude, Self.centre.longitude, nil)]
        for _ in 0..<8 {
            circles.append((
                Self.centre.latitude + Double.random(in: -0.07...0.07, using: &random),
                Self.centre.longitude + Double.random(in: -0.09...0.09, using: &random), Double.random(in: 500...10_000, using: &random)))
        }
        for circle in circles {
            let radius = circle.radius ?? 5_000
            let distances = events.map { event in event.place.map { Haversine.distance((circle.latitude, circle.longitude), $0) } }
            // A place within a millimetre of the edge is the formula's rounding to decide, not this test's.
            guard distances.allSatisfy({ $0.map { abs($0 - radius) > 0.001 } ?? true }) else { continue }
            let expected = zip(events, distances).filter { ($0.1 ?? .infinity) <= radius }.map(\.0.id)
            var near: [String: JSON] = ["latitude": .double(circle.latitude), "longitude": .double(circle.longitude)]
            if let given = circle.radius { near["radiusMeters"] = .double(given) }
            let filter: [String: JSON] = ["near": ServerProcess.input(near)["input"]!]
            let listed = try Self.ids(server, filter, as: ana)
            #expect(listed.ids == expected, "circle \(circle): \(listed.ids.count) listed, \(expected.count) expected")
            #expect(listed.totals == [expected.count], "circle \(circle)")
            let field = try server.graphQL(
                "query($filter: HabitHistoryFilter) { habitHistoryGeoJSON(filter: $filter) }", variables: ["filter": ServerProcess.input(filter)["input"]!], token: ana.token)
            let document = try #require(field.data?["habitHistoryGeoJSON"]?.stringValue, "\(field.json)")
            #expect(try Self.featureIDs(Array(document.utf8)) == expected, "the field's map, circle \(circle)")
            let query = "nearLatitude=\(circle.latitude)&nearLongitude=\(circle.longitude)" + (circle.radius.map { "&nearRadiusMeters=\($0)" } ?? "")
            let http = try server.get("/habits/history.geojson?\(query)", as: ana)
            #expect(http.status == 200)
            #expect(try Self.featureIDs(http.body) == expected, "the HTTP map, circle \(circle)")
        }
        // With the other conditions: one habit's events of the circle.
        let near: JSON = ["latitude": .double(Self.centre.latitude), "longitude": .double(Self.centre.longitude), "radiusMeters": 12_000]
        let runs = try Self.ids(server, ["habitId": .string(habits[0]), "near": near], as: ana)
        let expected = events.filter { event in
            event.habitID == habits[0] && (event.place.map { Haversine.distance(Self.centre, $0) } ?? .infinity) <= 12_000
        }
        #expect(!expected.isEmpty && runs.ids == expected.map(\.id) && runs.totals == [expected.count])
    }

    @Test func US_06_02_03_aCircleOutOfRangeIsRefusedOnTheMemberItNamesAtItsEdges() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, _, _) = try server.habitPeople()
        let run = try server.habit("Run", as: ana)
        _ = try server.habitEvent(of: run, as: ana, ["location": ["latitude": 89.99, "longitude": 0]])
        #expect(try Self.refusal(server, ["latitude": 0, "longitude": 0, "radiusMeters": 50_000], as: ana) == nil, "the maximum radius is accepted")
        #expect(try Self.refusal(server, ["latitude": 90, "longitude": 180], as: ana) == nil, "a pole is accepted")
        let atThePole = try server.habitHistory(["near": ["latitude": 90, "longitude": -180, "radiusMeters": 2_000]], as: ana)
        #expect(atThePole.data?["habitHistory"]?["totalCount"] == 1, "89.99° is 1.1 km from the pole: \(atThePole.json)")
        for (near, field) in [
            (["latitude": 0, "longitude": 0, "radiusMeters": 50_001] as [String: JSON], "filter.near.radiusMeters"),
            (["latitude": 0, "longitude": 0, "radiusMeters": -1], "filter.near.radiusMeters"),
            (["latitude": 90.0001, "longitude": 0], "filter.near.latitude"),
            (["latitude": -90.0001, "longitude": 0], "filter.near.latitude"),
            (["latitude": 0, "longitude": 180.0001], "filter.near.longitude"),
        ] {
            let refused = try Self.refusal(server, near, as: ana)
            #expect(refused?["code"] == "BAD_USER_INPUT" && refused?["reason"] == "OUT_OF_RANGE" && refused?["field"]?.stringValue == field, "\(near)")
        }
        // Over HTTP, the same members; numbers JSON cannot carry (NaN, infinities) are refused too.
        for (query, field, reason) in [
            ("nearLatitude=90.0001&nearLongitude=0", "filter.near.latitude", "OUT_OF_RANGE"),
            ("nearLatitude=nan&nearLongitude=0", "filter.near.latitude", "OUT_OF_RANGE"),
            ("nearLatitude=0&nearLongitude=-inf", "filter.near.longitude", "OUT_OF_RANGE"),
            ("nearLatitude=0&nearLongitude=0&nearRadiusMeters=inf", "filter.near.radiusMeters", "OUT_OF_RANGE"),
            ("nearLatitude=0&nearLongitude=0&nearRadiusMeters=50001", "filter.near.radiusMeters", "OUT_OF_RANGE"),
            ("nearLatitude=0", "filter.near.longitude", "REQUIRED"),
            ("nearRadiusMeters=10&nearLongitude=0&nearLatitude=north", "filter.near.latitude", "INVALID_FORMAT"),
        ] {
            let response = try server.get("/habits/history.geojson?\(query)", as: ana)
            let error = try JSON(parsing: response.body)["errors"]?[0]?["extensions"]
            #expect(response.status == 400 && error?["field"]?.stringValue == field && error?["reason"]?.stringValue == reason, "\(query)")
        }
        let accepted = try server.get("/habits/history.geojson?nearLatitude=90&nearLongitude=0&nearRadiusMeters=50000", as: ana)
        #expect(accepted.status == 200)
        #expect(try Self.featureIDs(accepted.body).count == 1)
    }
}
