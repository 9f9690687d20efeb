import HearthServices

/// The related rows of the chores one field returned (a page, a node list, one chore), loaded
/// together: the first chore whose `assignees` (or `steps`, `tags`, rules) the executor resolves
/// dispatches one read for every chore of the batch that asks, so a list of any length costs one
/// query per kind of row (FR-55: no query per chore). Made per result set, so nothing is cached
/// across operations (a WebSocket connection runs many).
final class ChoreBatch: Sendable {
    /// What the chores were read with, and their related rows are read with.
    let access: ChoreAccess
    let assignees: DataLoader<ChoreRecord, [ChoreAssignee]>
    let steps: DataLoader<String, [ChoreStepRecord]>
    let tags: DataLoader<String, [TagRecord]>
    let rules: DataLoader<String, ChoreRuleSet>
    /// The household of household chores: read once for the whole batch.
    let household: DataLoader<String, HouseholdRecord>

    /// A batch for chores granted by `access`.
    init(access: ChoreAccess, chores: ChoreService) {
        self.access = access
        household = DataLoader { ids in
            guard let granted = access.household else { return [:] }
            return [granted.householdID: try await chores.households.household(granted)].filter { ids.contains($0.key) }
        }
        assignees = DataLoader { try await chores.assignees(of: $0, access: access).mapKeys($0) }
        steps = DataLoader { try await chores.steps(of: $0, access: access) }
        tags = DataLoader { try await chores.tags(of: $0, access: access) }
        rules = DataLoader { try await chores.rules(of: $0, access: access) }
    }
}

extension Dictionary where Key == String {
    /// The values by chore id re-keyed by the chores themselves.
    fileprivate func mapKeys(_ chores: [ChoreRecord]) -> [ChoreRecord: Value] {
        Dictionary<ChoreRecord, Value>(uniqueKeysWithValues: chores.compactMap { chore in self[chore.id].map { (chore, $0) } })
    }
}
