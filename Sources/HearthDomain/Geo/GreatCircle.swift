import Glibc

/// Distances on the sphere of the mean Earth radius: the haversine great-circle distance, which
/// stays accurate for the short distances "within 5 km" compares (the law of cosines loses them
/// to rounding below a metre).
public enum GreatCircle {
    /// The mean Earth radius, in metres (IUGG's R₁, 6,371,008.8 m).
    public static let earthRadius = 6_371_008.8

    /// The haversine distance in metres between two points given in degrees.
    public static func distance(latitude: Double, longitude: Double, toLatitude: Double, longitude otherLongitude: Double) -> Double {
        let from = latitude * radiansPerDegree
        let to = toLatitude * radiansPerDegree
        return distance(fromLatitude: from, cosine: cos(from), toLatitude: to, cosine: cos(to),
                        longitudeDifference: (otherLongitude - longitude) * radiansPerDegree)
    }

    /// The haversine distance in metres between latitudes `from` and `to` (radians, with their
    /// cosines, which callers comparing one point with many compute once) `longitudeDifference`
    /// radians apart.
    static func distance(fromLatitude from: Double, cosine fromCosine: Double, toLatitude to: Double, cosine toCosine: Double,
                         longitudeDifference: Double) -> Double {
        let latitudeHalf = sin((to - from) / 2)
        let longitudeHalf = sin(longitudeDifference / 2)
        let haversine = latitudeHalf * latitudeHalf + fromCosine * toCosine * longitudeHalf * longitudeHalf
        return 2 * earthRadius * asin(min(1, haversine.squareRoot()))
    }

    /// The point `distance` metres from a point given in degrees, setting out on `bearing` degrees
    /// (clockwise from north), as (latitude, longitude) in degrees with the longitude in −180…180:
    /// what tests and benchmarks plant around a centre.
    public static func destination(latitude: Double, longitude: Double, bearing: Double, distance: Double) -> (latitude: Double, longitude: Double) {
        let from = latitude * radiansPerDegree
        let angle = distance / earthRadius
        let heading = bearing * radiansPerDegree
        let to = asin(min(1, max(-1, sin(from) * cos(angle) + cos(from) * sin(angle) * cos(heading))))
        let turn = atan2(sin(heading) * sin(angle) * cos(from), cos(angle) - sin(from) * sin(to))
        var east = longitude + turn / radiansPerDegree
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        return (min(90, max(-90, to / radiansPerDegree)), min(180, max(-180, east)))
    }

    /// π / 180.
    static let radiansPerDegree = Double.pi / 180
}
