import FoundationEssentials
import HearthDomain

/// A household's leaderboard for one period (FR-56): its current members ranked by the completions
/// that count in the period (``ScoreKeeper`` says which), with their chore tokens and share.
public struct Leaderboard: Sendable, Hashable {
    /// The household.
    public var householdID: String
    /// The days counted.
    public var window: ScoreWindow
    /// The time zone the days are counted in (the household's).
    public var timeZone: String
    /// The day its weeks start on.
    public var firstWeekday: Weekday
    /// The members, best first: active members only (a member who left keeps their history but
    /// leaves the board; rejoining brings it back). Equal counts share a rank (1, 1, 3); among them,
    /// more tokens first, then by name.
    public var entries: [LeaderboardEntry]
    /// The completions of everyone on the board in the period: what shares are of.
    public var totalCompletions: Int
    /// The chore tokens of everyone on the board in the period.
    public var totalTokens: Int

    /// The board of `rows` (each member with their sums) for `window`.
    init(householdID: String, window: ScoreWindow, timeZone: String, firstWeekday: Weekday, rows: [(MemberRecord, completions: Int, tokens: Int)]) {
        self.householdID = householdID
        self.window = window
        self.timeZone = timeZone
        self.firstWeekday = firstWeekday
        let sorted = rows.sorted { left, right in
            (-left.completions, -left.tokens, left.0.displayName, left.0.id) < (-right.completions, -right.tokens, right.0.displayName, right.0.id)
        }
        totalCompletions = sorted.reduce(0) { $0 + $1.completions }
        totalTokens = sorted.reduce(0) { $0 + $1.tokens }
        let total = totalCompletions
        let ranks = ScoreRanking.ranks(ofDescending: sorted.map(\.completions))
        entries = zip(sorted, ranks).map { row, rank in
            LeaderboardEntry(
                member: row.0, rank: rank, completions: row.completions, tokens: row.tokens,
                percentage: ScoreRanking.percentage(row.completions, of: total))
        }
    }
}

/// One member's line on a ``Leaderboard``.
public struct LeaderboardEntry: Sendable, Hashable {
    /// The member.
    public var member: MemberRecord
    /// 1 for the most completions; equal counts share a rank.
    public var rank: Int
    /// The completions that count in the period.
    public var completions: Int
    /// The tokens the member's share of those completions' rewards came to (their own and others'
    /// completions, as the household's earnings split gave them).
    public var tokens: Int
    /// `completions` as a percentage of the board's total, two decimal places.
    public var percentage: DecimalAmount
}

/// A user's personal scoreboard for one period (FR-57): their personal chores' completions only,
/// visible to themselves alone.
public struct PersonalScoreboard: Sendable, Hashable {
    /// The days counted.
    public var window: ScoreWindow
    /// The time zone the days are counted in (the user's; UTC when they chose none).
    public var timeZone: String
    /// Completions of personal chores in the period.
    public var completions: Int
}
