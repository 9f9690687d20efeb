/// Where a habit event happened (US 06.01): a point in degrees (WGS 84) and, optionally, the
/// accuracy the device reported, in metres.
public struct HabitLocation: Sendable, Hashable, Codable {
    /// Degrees north, −90 to 90.
    public let latitude: Double
    /// Degrees east, −180 to 180.
    public let longitude: Double
    /// The radius of the device's uncertainty in metres, 0 or more; `nil` when not reported.
    public let accuracyMeters: Double?

    /// A location, checked: finite numbers in range (NaN and the infinities are refused).
    /// - Parameter field: The input path of the location, e.g. `input.location`; problems name its
    ///   member (`input.location.latitude`).
    /// - Throws: ``FieldProblem`` `OUT_OF_RANGE` for the first value out of range.
    public init(latitude: Double, longitude: Double, accuracyMeters: Double? = nil, field: String) throws(FieldProblem) {
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw FieldProblem(field: field + ".latitude", reason: .outOfRange, message: "A latitude is a number from -90 to 90.")
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw FieldProblem(field: field + ".longitude", reason: .outOfRange, message: "A longitude is a number from -180 to 180.")
        }
        if let accuracyMeters, !accuracyMeters.isFinite || accuracyMeters < 0 {
            throw FieldProblem(field: field + ".accuracyMeters", reason: .outOfRange, message: "An accuracy is a number of metres, 0 or more.")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
    }

    /// The location's cell in the geohash grid, at the stored precision (`habit_events.geohash`).
    public var geohash: String {
        Geohash.encode(latitude: latitude, longitude: longitude)
    }
}
