import HearthDomain

/// Circles and points for the grid index's exactness tests (the cover's property test, the
/// service's comparison with brute force): centres where grids go wrong, seeded.
public enum GeoSamples {
    /// The kinds of centre, taken in turn.
    public static let kinds = [
        "anywhere", "near the antimeridian", "near the north pole", "near the south pole", "on the equator",
        "on a cell corner", "on a cell edge", "at a high latitude", "exactly on a pole or the antimeridian",
    ]

    /// Circle `index` (its kind is `kinds[index % kinds.count]`), with a radius of 0, 50,000 m,
    /// 5,000 m, a few metres or anything up to 50,000 m.
    public static func circle(_ index: Int, _ random: inout SeededRandom) -> GeoCircle {
        let radius = random.pick([0, 50_000, 5_000, Double.random(in: 0...20, using: &random), Double.random(in: 0...50_000, using: &random)])
        let anyLongitude = Double.random(in: -180...180, using: &random)
        let (latitude, longitude): (Double, Double)
        switch index % kinds.count {
        case 1:
            let side = random.pick([-1.0, 1.0])
            (latitude, longitude) = (Double.random(in: -85...85, using: &random), side * (180 - Double.random(in: 0...0.01, using: &random)))
        case 2: (latitude, longitude) = (90 - Double.random(in: 0...0.45, using: &random), anyLongitude)
        case 3: (latitude, longitude) = (-90 + Double.random(in: 0...0.45, using: &random), anyLongitude)
        case 4: (latitude, longitude) = (0, anyLongitude)
        case 5, 6:
            let hash = Geohash.encode(
                latitude: Double.random(in: -89...89, using: &random), longitude: anyLongitude, precision: random.int(1...Geohash.storedPrecision))
            let cell = Geohash.decode(hash)!
            let onCorner = index % kinds.count == 5
            latitude = random.pick([cell.south, cell.north])
            longitude = onCorner ? random.pick([cell.west, cell.east]) : Double.random(in: cell.west...cell.east, using: &random)
        case 7: (latitude, longitude) = (random.pick([-1.0, 1.0]) * Double.random(in: 60...89.5, using: &random), anyLongitude)
        case 8: (latitude, longitude) = random.pick([(90, anyLongitude), (-90, anyLongitude), (0, 180), (0, -180), (45, 180), (-45, -180)])
        default: (latitude, longitude) = (Double.random(in: -90...90, using: &random), anyLongitude)
        }
        return GeoCircle(latitude: latitude, longitude: longitude, radius: radius)
    }

    /// `count` points planted around the circle: on its edge (and a hair inside and outside),
    /// anywhere inside, just beyond it, and on its centre; as (latitude, longitude).
    public static func planted(around circle: GeoCircle, count: Int, _ random: inout SeededRandom) -> [(latitude: Double, longitude: Double)] {
        (0..<count).map { index in
            let distance: Double
            switch index % 5 {
            case 0: distance = circle.radius
            case 1: distance = circle.radius * random.pick([1 - 1e-12, 1 + 1e-12, 1 - 1e-9, 1 + 1e-9]) + random.pick([0, 1e-6, -1e-6])
            case 2: distance = Double.random(in: 0...circle.radius, using: &random)
            case 3: distance = circle.radius * Double.random(in: 1...1.5, using: &random) + Double.random(in: 0...100, using: &random)
            default: distance = index == 4 ? 0 : Double.random(in: 0...(circle.radius * 1.1 + 10), using: &random)
            }
            return GreatCircle.destination(
                latitude: circle.latitude, longitude: circle.longitude, bearing: Double.random(in: 0..<360, using: &random),
                distance: max(0, distance))
        }
    }
}
