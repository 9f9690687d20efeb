/// Who a chore is for and how its completion is tracked (FR-27 – FR-30). Stored as the raw value.
public enum AssignmentMode: String, Sendable, CaseIterable, Codable {
    /// One assignee (FR-27); others may complete it only as the chore's fallback completers
    /// (its completion rule), e.g. while the assignee is away.
    case individual
    /// Chosen members (FR-28), each with an instance of their own: done when all of them are.
    case group
    /// Every active member (FR-29), each with an instance of their own; who that is follows the
    /// household's membership, so no assignees are stored.
    case allMembers = "all_members"
    /// One shared instance (FR-30): the first completion by any eligible member finishes it for
    /// everyone. An optional primary assignee sees it first; the chore's completion rule says who
    /// else is eligible (every active adult when the rule is empty: children are eligible when the
    /// rule names them or their kind, ``PermissionRule``).
    case singleAction = "single_action"

    /// How many assignees the mode takes: exactly one, at least one, none (computed), at most one.
    public var assigneeCount: ClosedRange<Int> {
        switch self {
        case .individual: 1...1
        case .group: 1...Int.max
        case .allMembers: 0...0
        case .singleAction: 0...1
        }
    }
}
