import Foundation
import HearthDomain
import HearthServices
import TestFixtures
import Testing

/// `habitHistory(filter: { near })` and its GeoJSON as the service answers them: exactly the
/// located events within the circle (brute force over every event, by the same haversine
/// distance), newest first, paged with cursors, counted, and combined with the other conditions;
/// the circle refused at its edges as `habitEventsNear` refuses it.
@Suite struct HabitHistoryNearTests {
    private static func with(
        _ geo: GeoConfiguration = GeoConfiguration(), _ body: (HouseholdsHarness, HabitService) async throws -> Void
    ) async throws {
        try await HouseholdsHarness.with { harness in
            try await body(harness, HabitService(configuration: HabitsConfiguration(), geo: geo, households: harness.service))
        }
    }

    /// The places the events are planted around: a city, the antimeridian, near the north pole.
    static let clusters = [(48.8566, 2.3522), (-16.5, 179.99), (89.9, 10.0)]

    /// `count` events of two habits of `viewer`'s, each around one of the clusters within 30 km
    /// (some with no place, some with the comment "run"), over the last few days; every event of
    /// the viewer's history, newest first, as the unfiltered history pages it.
    private static func plant(
        _ count: Int, _ habits: HabitService, _ harness: HouseholdsHarness, viewer: Viewer, random: inout SeededRandom
    ) async throws -> [HabitEventRecord] {
        let today = CalendarDay(containing: harness.clock.now, in: .utc)
        var habitIDs: [String] = []
        for title in ["Run", "Walk"] {
            habitIDs.append(try await habits.createHabit(
                HabitDraft(title: title, reason: nil, startsOn: CalendarDay(dayNumber: today.dayNumber - 30), plan: Weekday.allCases), viewer: viewer).id)
        }
        for index in 0..<count {
            let (latitude, longitude) = clusters[index % clusters.count]
            let place = GreatCircle.destination(
                latitude: latitude, longitude: longitude, bearing: Double.random(in: 0..<360, using: &random),
                distance: Double.random(in: 0...30_000, using: &random))
            _ = try await habits.recordHabitEvent(
                HabitEventDraft(
                    habitID: habitIDs[index % 2], occurredOn: CalendarDay(dayNumber: today.dayNumber - Int.random(in: 0...4, using: &random)),
                    comment: index % 3 == 0 ? "run" : nil,
                    location: index % 7 == 6 ? nil : LocationInput(latitude: place.latitude, longitude: place.longitude)),
                viewer: viewer)
        }
        return try await everything(HabitHistoryFilter(), habits, viewer: viewer, pageSize: 100).events
    }

    /// Every event the history with `filter` lists, paging with `pageSize`, with each page's
    /// `totalCount` and whether its `hasPreviousPage` and `hasNextPage` were right.
    private static func everything(
        _ filter: HabitHistoryFilter, _ habits: HabitService, viewer: Viewer, pageSize: Int
    ) async throws -> (events: [HabitEventRecord], totals: Set<Int>, flagsRight: Bool) {
        var events: [HabitEventRecord] = []
        var totals: Set<Int> = []
        var flagsRight = true
        var after: String?
        repeat {
            let page = try await habits.habitHistory(filter, viewer: viewer, first: pageSize, after: after)
            events += page.edges.map(\.item)
            totals.insert(page.totalCount)
            flagsRight = flagsRight && page.hasPreviousPage == (after != nil) && page.hasNextPage == (events.count < page.totalCount)
            after = page.hasNextPage ? page.endCursor : nil
        } while after != nil
        return (events, totals, flagsRight)
    }

    /// The ids of the features of a GeoJSON document, in order.
    private static func featureIDs(_ document: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        return try #require(object["features"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    }

    @Test func nearListsExactlyTheEventsWithinTheCircleNewestFirstWhatBruteForceFinds() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            var random = SeededRandom(seed: 16)
            let all = try await Self.plant(150, habits, harness, viewer: ana, random: &random)
            #expect(all.count == 150)
            var nonEmpty = 0
            for round in 0..<30 {
                let (latitude, longitude) = Self.clusters[round % Self.clusters.count]
                let centre = GreatCircle.destination(
                    latitude: latitude, longitude: longitude, bearing: Double.random(in: 0..<360, using: &random),
                    distance: Double.random(in: 0...20_000, using: &random))
                let radius = round == 0 ? 0 : Double.random(in: 0...25_000, using: &random)
                let circle = GeoCircle(latitude: centre.latitude, longitude: centre.longitude, radius: radius)
                let near = HabitHistoryFilter.Near(latitude: centre.latitude, longitude: centre.longitude, radius: radius)
                let expected = all.filter { event in event.location.map { circle.contains(latitude: $0.latitude, longitude: $0.longitude) } ?? false }
                let listed = try await Self.everything(HabitHistoryFilter(near: near), habits, viewer: ana, pageSize: 7)
                #expect(listed.events.map(\.id) == expected.map(\.id), "round \(round): \(circle)")
                #expect(listed.totals == [expected.count] && listed.flagsRight, "round \(round): counts \(listed.totals), expected \(expected.count)")
                #expect(try Self.featureIDs(try await habits.habitHistoryGeoJSON(HabitHistoryFilter(near: near), viewer: ana)) == expected.map(\.id))
                if !expected.isEmpty { nonEmpty += 1 }
            }
            #expect(nonEmpty >= 20, "most circles hold events: \(nonEmpty)")
        }
    }

    @Test func nearNarrowsTheOtherConditionsAndAnEventExactlyOnTheEdgeIsIn() async throws {
        try await Self.with { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            var random = SeededRandom(seed: 6)
            let all = try await Self.plant(60, habits, harness, viewer: ana, random: &random)
            let (latitude, longitude) = Self.clusters[0]
            let near = HabitHistoryFilter.Near(latitude: latitude, longitude: longitude, radius: 15_000)
            let circle = GeoCircle(latitude: latitude, longitude: longitude, radius: 15_000)
            func within(_ event: HabitEventRecord) -> Bool {
                event.location.map { circle.contains(latitude: $0.latitude, longitude: $0.longitude) } ?? false
            }
            let habitID = all[0].habitID
            let both = try await Self.everything(HabitHistoryFilter(habitID: habitID, commentContains: "Run", near: near), habits, viewer: ana, pageSize: 3)
            let expected = all.filter { within($0) && $0.habitID == habitID && $0.comment == "run" }
            #expect(!expected.isEmpty && both.events.map(\.id) == expected.map(\.id) && both.totals == [expected.count])
            // An event whose distance from a centre is the radius exactly, by the one formula.
            let edge = try #require(all.first(where: within))
            let place = try #require(edge.location)
            let distance = GreatCircle.distance(latitude: latitude, longitude: longitude, toLatitude: place.latitude, longitude: place.longitude)
            for (radius, isIn) in [(distance, true), (distance.nextDown, false)] {
                let listed = try await habits.habitHistory(
                    HabitHistoryFilter(near: .init(latitude: latitude, longitude: longitude, radius: radius)), viewer: ana)
                #expect(listed.edges.contains { $0.item.id == edge.id } == isIn, "radius \(radius)")
            }
        }
    }

    @Test func theCircleIsRefusedAtItsEdgesOnTheMemberItNames() async throws {
        var geo = GeoConfiguration()
        geo.maximumRadius = 1_000
        try await Self.with(geo) { harness, habits in
            let ana = try await harness.confirmedViewer("ana")
            func problems(_ latitude: Double, _ longitude: Double, _ radius: Double) async throws -> [String] {
                do {
                    _ = try await habits.habitHistory(HabitHistoryFilter(near: .init(latitude: latitude, longitude: longitude, radius: radius)), viewer: ana)
                    _ = try await habits.habitHistoryGeoJSON(HabitHistoryFilter(near: .init(latitude: latitude, longitude: longitude, radius: radius)), viewer: ana)
                    return []
                } catch let error as ServiceError {
                    #expect(error.code == .badUserInput && error.problems.allSatisfy { $0.reason == .outOfRange })
                    return error.problems.map(\.field)
                }
            }
            #expect(try await problems(90, 180, 1_000) == [])
            #expect(try await problems(-90, -180, 0) == [])
            #expect(try await problems(90.0001, 0, 1_000) == ["filter.near.latitude"])
            #expect(try await problems(-90.0001, 0, 1_000) == ["filter.near.latitude"])
            #expect(try await problems(0, 180.0001, 1_000) == ["filter.near.longitude"])
            #expect(try await problems(0, 0, 1_001) == ["filter.near.radiusMeters"], "the configured maximum, and one more")
            #expect(try await problems(0, 0, -1) == ["filter.near.radiusMeters"])
            #expect(try await problems(.nan, .infinity, .nan) == ["filter.near.latitude", "filter.near.longitude", "filter.near.radiusMeters"])
            #expect(try await problems(0, -.infinity, .infinity) == ["filter.near.longitude", "filter.near.radiusMeters"])
        }
    }
}
