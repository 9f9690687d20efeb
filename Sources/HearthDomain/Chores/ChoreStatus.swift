/// Where a chore definition stands (FR-37). Not stored: it is whether `chores.archived_at` is set.
public enum ChoreStatus: String, Sendable, CaseIterable, Codable {
    /// Still producing instances to do: every recurring and `afterCompletion` chore, and a one-off
    /// chore until its occurrence is done or past its due day.
    case active
    /// A one-off chore whose occurrence is done, or was not done by the end of its due day: kept
    /// with its history, left out of chore lists unless they ask for it.
    case archived
}
