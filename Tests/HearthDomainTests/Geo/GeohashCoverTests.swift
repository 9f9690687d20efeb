import Foundation
import HearthDomain
import TestFixtures
import Testing

@Suite struct GeohashCoverTests {
    /// The most ranges the service reads by default, and a tight limit.
    static let limits = [24, 8]

    @Test func holdsTheStoredHashOfEveryPointInTheCircle() {
        let seed = SeededRandom.seed(fallback: 6_404)
        var random = SeededRandom(seed: seed)
        for index in 0..<3000 {
            let circle = GeoSamples.circle(index, &random)
            let cover = GeohashCover(circle: circle, maximumRanges: random.pick(Self.limits))
            for point in GeoSamples.planted(around: circle, count: 40, &random) where circle.contains(latitude: point.latitude, longitude: point.longitude) {
                let hash = Geohash.encode(latitude: point.latitude, longitude: point.longitude)
                guard cover.contains(hash) else {
                    Issue.record("seed \(seed), circle \(index) (\(GeoSamples.kinds[index % GeoSamples.kinds.count])) \(circle): point \(point) (\(hash)) outside the cover \(cover.ranges)")
                    return
                }
            }
        }
    }

    @Test func keepsToTheRangeLimitWithOrderedDisjointRanges() {
        var random = SeededRandom(seed: SeededRandom.seed(fallback: 32))
        for index in 0..<500 {
            let circle = GeoSamples.circle(index, &random)
            for limit in [8, 12, 24, 64] {
                let cover = GeohashCover(circle: circle, maximumRanges: limit)
                #expect(!cover.ranges.isEmpty && cover.ranges.count <= limit, "\(circle)")
                for (earlier, later) in zip(cover.ranges, cover.ranges.dropFirst()) {
                    let end = earlier.upperBound ?? "~"
                    #expect(end.utf8.lexicographicallyPrecedes(later.lowerBound.utf8), "ranges apart and in order: \(circle) \(cover.ranges)")
                }
                #expect((1...Geohash.storedPrecision).contains(cover.precision))
            }
        }
    }

    @Test func readsLittleMoreThanTheCircleWhereCellsAreSquareEnough() {
        // 5 km at the equator and at 60°: the cells read are a few times the circle's area, not the
        // whole box of a coarse cell.
        for latitude in [0.0, 45, 60] {
            let circle = GeoCircle(latitude: latitude, longitude: 13.4, radius: 5_000)
            let cover = GeohashCover(circle: circle, maximumRanges: 24)
            let disc = Double.pi * 5_000 * 5_000
            #expect(cover.area < 4 * disc, "latitude \(latitude): \(cover.area / disc)× the circle at precision \(cover.precision)")
            #expect(cover.precision >= 5)
        }
    }

    @Test func reachesAcrossTheAntimeridian() {
        let circle = GeoCircle(latitude: 10, longitude: 179.99, radius: 5_000)
        let cover = GeohashCover(circle: circle, maximumRanges: 24)
        let west = Geohash.encode(latitude: 10, longitude: -179.99)
        let east = Geohash.encode(latitude: 10, longitude: 179.98)
        #expect(cover.contains(west) && cover.contains(east))
        #expect(!cover.contains(Geohash.encode(latitude: 10, longitude: -179.9)))
        #expect(!cover.contains(Geohash.encode(latitude: 10, longitude: 0)))
    }

    @Test func coversEveryLongitudeAroundAPoleInsideTheCircle() {
        for latitude in [90.0, 89.9, -89.99] {
            let circle = GeoCircle(latitude: latitude, longitude: 40, radius: 50_000)
            let cover = GeohashCover(circle: circle, maximumRanges: 24)
            let ring = latitude > 0 ? 89.7 : -89.7
            for longitude in stride(from: -180.0, through: 180, by: 0.5) where circle.contains(latitude: ring, longitude: longitude) {
                #expect(cover.contains(Geohash.encode(latitude: ring, longitude: longitude)), "\(latitude): \(ring), \(longitude)")
            }
            #expect(!cover.contains(Geohash.encode(latitude: 0, longitude: 40)))
        }
    }

    @Test func coversAPointCircleWithTheCellsMeetingAtItsCentre() throws {
        // A radius of 0 on a corner shared by four cells: the points there belong to one of them
        // (the north-eastern), and every one is read.
        let corner = try #require(Geohash.decode("u33db"))
        let circle = GeoCircle(latitude: corner.south, longitude: corner.west, radius: 0)
        let cover = GeohashCover(circle: circle, maximumRanges: 24)
        #expect(cover.contains(Geohash.encode(latitude: corner.south, longitude: corner.west)))
        #expect(cover.precision == Geohash.storedPrecision && cover.cellCount <= 4)
    }

    @Test func validatesUntrustedInput() {
        for (latitude, longitude, radius, field) in [
            (90.000001, 0.0, 1.0, "latitude"), (-91, 0, 1, "latitude"), (.nan, 0, 1, "latitude"), (0, 180.5, 1, "longitude"),
            (0, -.infinity, 1, "longitude"), (0, 0, -1, "radiusMeters"), (0, 0, 50_000.001, "radiusMeters"), (0, 0, .nan, "radiusMeters"),
        ] {
            #expect(throws: InputProblems([FieldProblem(field: field, reason: .outOfRange, message: problemMessage(field))])) {
                try GeoCircle.validated(latitude: latitude, longitude: longitude, radius: radius, maximumRadius: 50_000)
            }
        }
        #expect((try? GeoCircle.validated(latitude: -90, longitude: 180, radius: 50_000, maximumRadius: 50_000)) != nil)
    }

    private func problemMessage(_ field: String) -> String {
        switch field {
        case "latitude": "A latitude is a number of degrees from -90 to 90."
        case "longitude": "A longitude is a number of degrees from -180 to 180."
        default: "The radius is a number of metres from 0 to 50000."
        }
    }
}
