/// A circle on the Earth's surface: every point within `radius` metres (great-circle distance,
/// ``GreatCircle``) of a centre given in degrees.
public struct GeoCircle: Sendable, Hashable {
    /// The centre's latitude, −90…90.
    public let latitude: Double
    /// The centre's longitude, −180…180.
    public let longitude: Double
    /// The radius in metres, 0 or more.
    public let radius: Double

    /// The circle; the values must be in range (``validated(latitude:longitude:radius:maximumRadius:)`` checks input).
    public init(latitude: Double, longitude: Double, radius: Double) {
        precondition((-90...90).contains(latitude) && (-180...180).contains(longitude) && radius >= 0 && radius.isFinite,
                     "a circle's centre and radius are in range")
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// The circle of untrusted input.
    /// - Throws: ``InputProblems`` for latitude outside −90…90, longitude
    /// outside −180…180, a radius below 0 or above `maximumRadius`, or any of them not a finite
    /// number, each `OUT_OF_RANGE` on its field (`latitude`, `longitude`, `radiusMeters`).
    public static func validated(latitude: Double, longitude: Double, radius: Double, maximumRadius: Double) throws(InputProblems) -> GeoCircle {
        var problems: [FieldProblem] = []
        if !(-90...90).contains(latitude) {
            problems.append(FieldProblem(field: "latitude", reason: .outOfRange, message: "A latitude is a number of degrees from -90 to 90."))
        }
        if !(-180...180).contains(longitude) {
            problems.append(FieldProblem(field: "longitude", reason: .outOfRange, message: "A longitude is a number of degrees from -180 to 180."))
        }
        if !(0...maximumRadius).contains(radius) {
            problems.append(FieldProblem(
                field: "radiusMeters", reason: .outOfRange, message: "The radius is a number of metres from 0 to \(Int(maximumRadius))."))
        }
        try InputProblems.throwIfAny(problems)
        return GeoCircle(latitude: latitude, longitude: longitude, radius: radius)
    }

    /// Whether the point given in degrees lies in the circle (its distance is at most the radius).
    public func contains(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Bool {
        distance(toLatitude: pointLatitude, longitude: pointLongitude) <= radius
    }

    /// The great-circle distance in metres from the centre to the point given in degrees.
    public func distance(toLatitude pointLatitude: Double, longitude pointLongitude: Double) -> Double {
        GreatCircle.distance(latitude: latitude, longitude: longitude, toLatitude: pointLatitude, longitude: pointLongitude)
    }
}
