/// Which of the viewer's habit events `habitHistory` and its map list (US 04.02, US 04.03,
/// US 06.02). Each condition given narrows the list; none lists every event.
///
/// A new condition is a field here and a clause in ``HabitService``'s `historyConditions(of:)`,
/// so the list, its count and its GeoJSON apply it alike.
public struct HabitHistoryFilter: Sendable {
    /// Only the events of this habit of the viewer's.
    public var habitID: String?
    /// Only events whose comment contains this word, whole and ignoring case (``HabitRules/searchWord(_:field:)``).
    public var commentContains: String?
    /// Only located events within a radius of a point (exact great-circle distance, as `habitEventsNear`).
    public var near: Near?

    /// A circle as a client gives it (`NearFilter` in the schema), checked by ``HabitService``
    /// as `habitEventsNear` checks its centre and radius.
    public struct Near: Sendable, Hashable {
        /// The centre, in degrees.
        public var latitude: Double
        public var longitude: Double
        /// The radius in metres.
        public var radius: Double

        /// The radius most "near me" screens ask for, `habitEventsNear`'s default.
        public static let defaultRadius = 5_000.0

        /// The circle; 5 km unless the radius is given.
        public init(latitude: Double, longitude: Double, radius: Double = defaultRadius) {
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }
    }

    /// Creates a filter.
    public init(habitID: String? = nil, commentContains: String? = nil, near: Near? = nil) {
        self.habitID = habitID
        self.commentContains = commentContains
        self.near = near
    }
}
