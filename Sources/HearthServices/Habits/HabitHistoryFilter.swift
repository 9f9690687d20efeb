/// Which of the viewer's habit events `habitHistory` and its map list (US 04.02, US 04.03,
/// US 06.02). Each condition given narrows the list; none lists every event.
///
/// A new condition (the geo helper's `near`) is a field here and a clause in
/// ``HabitService``'s `historyConditions(of:)`, so the list, its count and its GeoJSON apply it alike.
public struct HabitHistoryFilter: Sendable {
    /// Only the events of this habit of the viewer's.
    public var habitID: String?
    /// Only events whose comment contains this word, whole and ignoring case (``HabitRules/searchWord(_:field:)``).
    public var commentContains: String?

    /// Creates a filter.
    public init(habitID: String? = nil, commentContains: String? = nil) {
        self.habitID = habitID
        self.commentContains = commentContains
    }
}
