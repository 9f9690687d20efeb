import Foundation
import HearthDomain
import TestFixtures
import Testing

@Suite struct GreatCircleTests {
    @Test func measuresOnTheSphereOfTheMeanEarthRadius() {
        #expect(GreatCircle.earthRadius == 6_371_008.8)
        let quarter = GreatCircle.distance(latitude: 0, longitude: 0, toLatitude: 90, longitude: 0)
        #expect(abs(quarter - 6_371_008.8 * Double.pi / 2) < 1e-6)
        let half = GreatCircle.distance(latitude: 0, longitude: 0, toLatitude: 0, longitude: 180)
        #expect(abs(half - 6_371_008.8 * Double.pi) < 1e-6)
        let oneDegree = GreatCircle.distance(latitude: 10, longitude: 20, toLatitude: 11, longitude: 20)
        #expect(abs(oneDegree - 111_195.0802) < 1e-3)
    }

    @Test func measuresAcrossTheAntimeridianAndOverThePoles() {
        let across = GreatCircle.distance(latitude: 0, longitude: 179.99, toLatitude: 0, longitude: -179.99)
        #expect(abs(across - 6_371_008.8 * 0.02 * Double.pi / 180) < 1e-6)
        let overThePole = GreatCircle.distance(latitude: 89.99, longitude: 0, toLatitude: 89.99, longitude: 180)
        #expect(abs(overThePole - 6_371_008.8 * 0.02 * Double.pi / 180) < 1e-6)
    }

    @Test func keepsCentimetresOfShortDistances() {
        let step = 1e-7
        let distance = GreatCircle.distance(latitude: 0, longitude: 0, toLatitude: 0, longitude: step)
        #expect(abs(distance - 6_371_008.8 * step * Double.pi / 180) < 1e-9)
        #expect(GreatCircle.distance(latitude: 45.5, longitude: -73.6, toLatitude: 45.5, longitude: -73.6) == 0)
    }

    @Test func agreesWithTheOracleOnRandomPairs() {
        // The haversine formula written out in full, as the issue states it.
        var random = SeededRandom(seed: SeededRandom.seed(fallback: 6_371))
        for _ in 0..<1000 {
            let a = (Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
            let b = (Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
            let radians = Double.pi / 180
            let latitudeTerm: Double = pow(sin((b.0 - a.0) * radians / 2), 2)
            let longitudeTerm: Double = pow(sin((b.1 - a.1) * radians / 2), 2)
            let h = latitudeTerm + cos(a.0 * radians) * cos(b.0 * radians) * longitudeTerm
            let expected = 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
            #expect(abs(GreatCircle.distance(latitude: a.0, longitude: a.1, toLatitude: b.0, longitude: b.1) - expected) < 1e-6)
        }
    }
}
