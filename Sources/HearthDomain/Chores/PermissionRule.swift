/// Who a chore rule lets act (FR-25): members by role, by kind, or by name. The household's
/// chore-creation policy is one; each chore has one for completing it and one for editing it,
/// and a step may override the completion rule for itself.
///
/// Admins are not listed: they may always create and edit, and the rule says who *else* may.
///
/// Children: a role grant admits adults of that role only; a child or shadow is admitted only
/// by name or by their kind (`CHILD`, `SHADOW`). So "members may complete it" does not let
/// children complete chores that are not theirs: a child completes only chores assigned to them
/// unless a rule names them or their kind (FR-25, the rule for children).
public struct PermissionRule: Sendable, Hashable, Codable {
    /// Adults with one of these roles.
    public var roles: [MemberRole]
    /// Members of these kinds.
    public var kinds: [MemberKind]
    /// These members, by id.
    public var memberIDs: [String]

    /// A rule of `roles`, `kinds` and `memberIDs`, each kept once and in a stable order (so two
    /// rules granting the same compare equal and read back as written).
    public init(roles: [MemberRole] = [], kinds: [MemberKind] = [], memberIDs: [String] = []) {
        self.roles = MemberRole.allCases.filter(roles.contains)
        self.kinds = MemberKind.allCases.filter(kinds.contains)
        self.memberIDs = Array(Set(memberIDs)).sorted()
    }

    /// The rule that grants nobody (beyond admins and assignees).
    public static let nobody = PermissionRule()

    /// Whether the rule grants nobody.
    public var isEmpty: Bool { roles.isEmpty && kinds.isEmpty && memberIDs.isEmpty }

    /// Whether the rule admits the member `memberID` of `kind` with `role`.
    public func admits(memberID: String, role: MemberRole, kind: MemberKind) -> Bool {
        memberIDs.contains(memberID) || kinds.contains(kind) || (kind.isAdult && roles.contains(role))
    }
}
