import Foundation
import HearthDomain
import HearthServices
import TestFixtures
import Testing

@Suite struct HabitEventsNearTests {
    @Test func findsExactlyWhatBruteForceFindsOverEveryStoredEvent() async throws {
        let seed = SeededRandom.seed(fallback: 60_401)
        var random = SeededRandom(seed: seed)
        let circles = (0..<1200).map { GeoSamples.circle($0, &random) }
        var events: [GeoWorld.Event] = []
        func add(_ point: (latitude: Double, longitude: Double)) {
            let owner = random.pick(GeoWorld.people)
            events.append(GeoWorld.Event(
                id: String(format: "hev_%06d", events.count), owner: owner, visibility: random.chance(0.3) ? "private" : "followers",
                latitude: point.latitude, longitude: point.longitude))
        }
        for _ in 0..<20_000 {
            add((asin(Double.random(in: -1...1, using: &random)) * 180 / .pi, Double.random(in: -180...180, using: &random)))
        }
        for circle in circles {
            for point in GeoSamples.planted(around: circle, count: 15, &random) { add(point) }
        }
        try await GeoWorld.with { world in
            try await world.insert(events)
            for (index, circle) in circles.enumerated() {
                // A long loop of CPU work on the cooperative pool: let other tests' tasks (the live
                // servers' async handlers) run between circles on a 2-core machine.
                await Task.yield()
                let scope = NearbyScope.allCases[index % 3]
                let found = try await world.service.habitEventsNear(
                    NearbyQuery(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius, scope: scope), viewer: world.viewers["ana"]!)
                var expected: [(id: String, distance: Double)] = []
                // Every stored event is compared; the latitude alone (a lower bound of the distance on
                // the sphere) rules most out before the haversine.
                let reach = circle.radius * (1 + 1e-9) + 1e-6
                for event in events where GeoWorld.visible(event, to: "ana", scope: scope, following: ["ben"]) {
                    guard abs(event.latitude - circle.latitude) * .pi / 180 * GreatCircle.earthRadius <= reach else { continue }
                    let distance = circle.distance(toLatitude: event.latitude, longitude: event.longitude)
                    if distance <= circle.radius { expected.append((event.id, distance)) }
                }
                expected.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
                expected = Array(expected.prefix(GeoService.maximumEntries))
                guard found.map(\.eventID) == expected.map(\.id), found.map(\.distance) == expected.map(\.distance) else {
                    Issue.record("""
                        seed \(seed), circle \(index) (\(GeoSamples.kinds[index % GeoSamples.kinds.count]), \(scope)) \(circle): \
                        found \(found.map(\.eventID)), brute force \(expected.map(\.id))
                        """)
                    return
                }
            }
        }
    }

    @Test func US_06_04_01_findsMineTheFollowedOrBothNearestFirstWithDistances() async throws {
        try await GeoWorld.with { world in
            // Around Berlin's Alexanderplatz: ana's, ben's and dee's events 1, 2 and 3 km east, and 6 km out.
            let centre = (latitude: 52.5219, longitude: 13.4132)
            func east(_ metres: Double) -> (Double, Double) {
                let point = GreatCircle.destination(latitude: centre.latitude, longitude: centre.longitude, bearing: 90, distance: metres)
                return (point.latitude, point.longitude)
            }
            try await world.insert([
                .init(id: "hev_a1", owner: "ana", visibility: "followers", latitude: east(1_000).0, longitude: east(1_000).1),
                .init(id: "hev_a2", owner: "ana", visibility: "private", latitude: east(3_000).0, longitude: east(3_000).1),
                .init(id: "hev_b1", owner: "ben", visibility: "followers", latitude: east(2_000).0, longitude: east(2_000).1),
                .init(id: "hev_b2", owner: "ben", visibility: "private", latitude: east(500).0, longitude: east(500).1),
                .init(id: "hev_b3", owner: "ben", visibility: "followers", latitude: east(6_000).0, longitude: east(6_000).1),
                .init(id: "hev_c1", owner: "cyd", visibility: "followers", latitude: east(100).0, longitude: east(100).1),
                .init(id: "hev_d1", owner: "dee", visibility: "followers", latitude: east(200).0, longitude: east(200).1),
            ])
            let ana = world.viewers["ana"]!
            func near(_ scope: NearbyScope, radius: Double = 5_000) async throws -> [String] {
                try await world.service.habitEventsNear(
                    NearbyQuery(latitude: centre.latitude, longitude: centre.longitude, radius: radius, scope: scope), viewer: ana
                ).map(\.eventID)
            }
            #expect(try await near(.mine) == ["hev_a1", "hev_a2"])
            // Ben's private habit and cyd's (whose follow is only requested) and dee's never show.
            #expect(try await near(.following) == ["hev_b1"])
            #expect(try await near(.both) == ["hev_a1", "hev_b1", "hev_a2"])
            #expect(try await near(.both, radius: 10_000) == ["hev_a1", "hev_b1", "hev_a2", "hev_b3"])
            let entries = try await world.service.habitEventsNear(NearbyQuery(latitude: centre.latitude, longitude: centre.longitude), viewer: ana)
            #expect(entries.map { ($0.distance * 1000).rounded() / 1000 } == [1_000, 2_000, 3_000])
            // Ben sees his own private event, and ana's shown to followers only once he follows her.
            let ben = world.viewers["ben"]!
            let bens = try await world.service.habitEventsNear(NearbyQuery(latitude: centre.latitude, longitude: centre.longitude), viewer: ben)
            #expect(bens.map(\.eventID) == ["hev_b2", "hev_b1"])
        }
    }

    @Test func US_06_04_01_dropsAnUnfollowedUsersEventsAtOnce() async throws {
        try await GeoWorld.with { world in
            try await world.insert([.init(id: "hev_b1", owner: "ben", visibility: "followers", latitude: 40.0, longitude: -3.7)])
            let query = NearbyQuery(latitude: 40.0, longitude: -3.7)
            #expect(try await world.service.habitEventsNear(query, viewer: world.viewers["ana"]!).map(\.eventID) == ["hev_b1"])
            try await world.unfollow("ana", "ben")
            #expect(try await world.service.habitEventsNear(query, viewer: world.viewers["ana"]!).isEmpty)
        }
    }

    @Test func US_06_04_01_reachesAcrossTheAntimeridianAndOverThePole() async throws {
        try await GeoWorld.with { world in
            try await world.insert([
                .init(id: "hev_east", owner: "ana", visibility: "followers", latitude: -16.5, longitude: 179.995),
                .init(id: "hev_west", owner: "ana", visibility: "followers", latitude: -16.5, longitude: -179.99),
                .init(id: "hev_far", owner: "ana", visibility: "followers", latitude: -16.5, longitude: -179.9),
                .init(id: "hev_pole", owner: "ana", visibility: "followers", latitude: 89.99, longitude: -170),
            ])
            let ana = world.viewers["ana"]!
            let across = try await world.service.habitEventsNear(NearbyQuery(latitude: -16.5, longitude: 179.99, radius: 5_000), viewer: ana)
            #expect(across.map(\.eventID) == ["hev_east", "hev_west"])
            let pole = try await world.service.habitEventsNear(NearbyQuery(latitude: 89.99, longitude: 10, radius: 5_000), viewer: ana)
            #expect(pole.map(\.eventID) == ["hev_pole"])
        }
    }

    @Test func US_06_04_01_keepsToSinceAndFirst() async throws {
        try await GeoWorld.with { world in
            try await world.insert((0..<120).map { index in
                .init(id: String(format: "hev_%03d", index), owner: "ana", visibility: "followers", latitude: 0, longitude: Double(index) * 1e-5,
                      recordedAt: index < 60 ? "2026-05-01T00:00:00.000Z" : "2026-07-01T00:00:00.000Z")
            })
            let ana = world.viewers["ana"]!
            let all = try await world.service.habitEventsNear(NearbyQuery(latitude: 0, longitude: 0), viewer: ana)
            #expect(all.count == 100 && all.first?.eventID == "hev_000" && all.last?.eventID == "hev_099")
            #expect(try await world.service.habitEventsNear(NearbyQuery(latitude: 0, longitude: 0, first: 0), viewer: ana).isEmpty)
            let since = try await world.service.habitEventsNear(
                NearbyQuery(latitude: 0, longitude: 0, since: Date(timeIntervalSince1970: 1_780_000_000), first: 3), viewer: ana)
            #expect(since.map(\.eventID) == ["hev_060", "hev_061", "hev_062"])
            for first in [-1, 101] {
                await #expect(throws: ServiceError.self) {
                    try await world.service.habitEventsNear(NearbyQuery(latitude: 0, longitude: 0, first: first), viewer: ana)
                }
            }
        }
    }

    @Test func refusesCoordinatesAndRadiiOutOfRangeNamingTheField() async throws {
        try await GeoWorld.with(configure: { $0.maximumRadius = 1_000 }) { world in
            let ana = world.viewers["ana"]!
            for (query, field) in [
                (NearbyQuery(latitude: 90.5, longitude: 0, radius: 1), "latitude"), (NearbyQuery(latitude: .nan, longitude: 0, radius: 1), "latitude"),
                (NearbyQuery(latitude: 0, longitude: -180.01, radius: 1), "longitude"), (NearbyQuery(latitude: 0, longitude: .infinity, radius: 1), "longitude"),
                (NearbyQuery(latitude: 0, longitude: 0, radius: -1), "radiusMeters"), (NearbyQuery(latitude: 0, longitude: 0, radius: 1_000.5), "radiusMeters"),
                (NearbyQuery(latitude: 0, longitude: 0, radius: .nan), "radiusMeters"), (NearbyQuery(latitude: 0, longitude: 0, radius: 5_000), "radiusMeters"),
            ] {
                do {
                    _ = try await world.service.habitEventsNear(query, viewer: ana)
                    Issue.record("\(query) accepted")
                } catch let error as ServiceError {
                    #expect(error.code == .badUserInput && error.problems.map(\.field) == [field] && error.problems.first?.reason == .outOfRange)
                }
            }
            // At the limit, and the poles and the antimeridian themselves, pass.
            for query in [NearbyQuery(latitude: 0, longitude: 0, radius: 1_000), NearbyQuery(latitude: -90, longitude: 180, radius: 0)] {
                #expect(try await world.service.habitEventsNear(query, viewer: ana).isEmpty)
            }
        }
    }
}
