import FoundationEssentials

/// A located habit event the viewer may see, with its distance from the query's centre: one
/// entry of `habitEventsNear`.
public struct NearbyHabitEvent: Sendable, Hashable {
    /// The event's id.
    public var eventID: String
    /// Its habit.
    public var habitID: String
    /// Its owner.
    public var userID: String
    /// Where it was recorded, in degrees.
    public var latitude: Double
    public var longitude: Double
    /// The great-circle distance from the centre, in metres.
    public var distance: Double

    /// The entry.
    public init(eventID: String, habitID: String, userID: String, latitude: Double, longitude: Double, distance: Double) {
        self.eventID = eventID
        self.habitID = habitID
        self.userID = userID
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
    }
}
