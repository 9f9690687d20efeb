import FoundationEssentials
import HearthDomain

/// The arguments of `habitEventsNear`, as a client gives them (checked by ``GeoService``).
public struct NearbyQuery: Sendable, Hashable {
    /// The centre, in degrees.
    public var latitude: Double
    public var longitude: Double
    /// The radius in metres.
    public var radius: Double
    /// Whose events.
    public var scope: NearbyScope
    /// Only events recorded at or after this instant, when given.
    public var since: Date?
    /// The most entries to return (nearest first); the list's maximum when absent.
    public var first: Int?

    /// The query; the radius is 5 km and the scope both unless given.
    public init(latitude: Double, longitude: Double, radius: Double = 5_000, scope: NearbyScope = .both, since: Date? = nil, first: Int? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.scope = scope
        self.since = since
        self.first = first
    }
}
