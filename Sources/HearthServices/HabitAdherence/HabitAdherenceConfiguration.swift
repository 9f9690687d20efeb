/// Limits of habit adherence. Read once at start from flags and environment (HearthApp's
/// `HabitAdherenceSettings`) and passed down.
public struct HabitAdherenceConfiguration: Sendable {
    /// The most weeks one `Habit.adherence(weeks:)` series may ask for (`--max-adherence-weeks`):
    /// two years by default, enough for a yearly chart with room to scroll.
    public var maximumWeeks = 104

    /// The defaults.
    public init() {}
}
