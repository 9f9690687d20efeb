import FoundationEssentials
import HearthServices

/// The related rows of the chores one field returned (a page, a node list, one chore), loaded
/// together: the first chore whose `assignees` (or `steps`, `tags`, rules) the executor resolves
/// dispatches one read for every chore of the batch that asks, so a list of any length costs one
/// query per kind of row (FR-55: no query per chore), and the kinds asked for by then share one
/// read transaction (the loaders are one ``LoaderGroup``). Made per result set, so nothing is
/// cached across operations (a WebSocket connection runs many).
final class ChoreBatch: Sendable {
    /// What the chores were read with, and their related rows are read with.
    let access: ChoreAccess
    let assignees: DataLoader<ChoreRecord, [ChoreAssignee]>
    let steps: DataLoader<String, [ChoreStepRecord]>
    let tags: DataLoader<String, [TagRecord]>
    let rules: DataLoader<String, ChoreRuleSet>
    /// The latest completions of `afterCompletion` chores by member (their next due times).
    let latestCompletions: DataLoader<String, [String: Date]>
    /// The household of household chores: read once for the whole batch.
    let household: DataLoader<String, HouseholdRecord>
    /// What the loaders dispatch together (an ``InstanceBatch`` adds its own).
    let group: LoaderGroup<SharedRead>

    /// A batch for chores granted by `access`.
    init(access: ChoreAccess, chores: ChoreService) {
        self.access = access
        let group = LoaderGroup<SharedRead>(read: chores.readTogether)
        self.group = group
        household = DataLoader(group: group) { ids, read in
            guard let granted = access.household else { return [:] }
            return [granted.householdID: try ChoreService.household(granted, in: read)].filter { ids.contains($0.key) }
        }
        assignees = DataLoader(group: group) { try ChoreService.assignees(of: $0, access: access, in: $1).mapKeys($0) }
        steps = DataLoader(group: group) { try ChoreService.steps(of: $0, access: access, in: $1) }
        tags = DataLoader(group: group) { try ChoreService.tags(of: $0, access: access, in: $1) }
        rules = DataLoader(group: group) { try ChoreService.rules(of: $0, access: access, in: $1) }
        latestCompletions = DataLoader(group: group) { try ChoreInstanceService.latestCompletions(of: $0, access: access, in: $1) }
    }
}

extension Dictionary where Key == String {
    /// The values by chore id re-keyed by the chores themselves.
    fileprivate func mapKeys(_ chores: [ChoreRecord]) -> [ChoreRecord: Value] {
        Dictionary<ChoreRecord, Value>(uniqueKeysWithValues: chores.compactMap { chore in self[chore.id].map { (chore, $0) } })
    }
}
