/// The time a household's leaderboard (FR-56) or a user's personal scoreboard (FR-57) counts
/// completions over.
public enum ScorePeriod: String, Sendable, Hashable, CaseIterable, Codable {
    /// The current calendar week, starting on the household's first weekday.
    case week
    /// The current calendar month.
    case month
    /// Everything ever counted.
    case allTime = "all_time"
}
