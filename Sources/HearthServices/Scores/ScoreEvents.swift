import HearthDomain

extension EventKind {
    /// What a household's leaderboard (or a user's personal scoreboard) counts changed: a final
    /// completion counted (recorded without needing approval, or approved) or was undone
    /// (``ScoreChange``). Recorded by ``ScoreKeeper`` in the transaction of the completion's change,
    /// on the household's topic (the owner's, for a personal chore).
    public static let scoresChanged: EventKind = "scores.changed"
}

/// The payload of ``EventKind/scoresChanged``: whose scores changed, on which days, and through
/// which completion.
public struct ScoreChange: Codable, Sendable, Equatable {
    /// The household, for a household chore.
    public var householdID: String?
    /// The owner, for a personal chore.
    public var userID: String?
    /// The completion counted or undone.
    public var completionID: String
    /// The members whose counts or tokens changed (household chores).
    public var memberIDs: [String]
    /// The days (day numbers, ``ScoreWindow``) whose sums changed: a board whose window holds none
    /// of them is unchanged.
    public var days: [Int]
}
