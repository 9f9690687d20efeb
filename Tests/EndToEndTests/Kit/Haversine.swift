import Foundation

/// Great-circle distances computed in the tests, apart from the server's: the haversine formula
/// on the sphere of the mean Earth radius, which the server documents for `habitEventsNear` and
/// `habitHistory(filter: { near })`.
enum Haversine {
    /// The mean Earth radius the distances are measured on, in metres.
    static let earthRadius = 6_371_008.8

    /// The haversine distance between two points in degrees, in metres.
    static func distance(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians, dLongitude = (b.longitude - a.longitude) * radians
        let h = pow(sin(dLatitude / 2), 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * pow(sin(dLongitude / 2), 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }
}
