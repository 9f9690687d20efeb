/// Whose habit events the "within 5 km" query returns (`NearbyScope` in the schema).
public enum NearbyScope: String, Sendable, Hashable, CaseIterable {
    /// The viewer's own events.
    case mine = "MINE"
    /// Events of the users the viewer follows (accepted follows), of habits they show followers.
    case following = "FOLLOWING"
    /// Both.
    case both = "BOTH"
}
