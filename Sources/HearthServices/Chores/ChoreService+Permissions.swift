import HearthDomain

extension ChoreService {
    /// Refuses `scope`'s user creating a chore unless they are an admin, the owner (personal
    /// chores), or admitted by the household's chore-creation policy (FR-25, FR-26).
    /// - Throws: `FORBIDDEN` with reason `CHORE_CREATION_POLICY`, the message saying who may.
    func ensureMayCreate(_ scope: ChoreScope) throws {
        guard let household = scope.household, !scope.access.isManager else { return }
        let policy = try PermissionGrants.policy(household)
        guard !Self.admits(policy.rule, household.access.member) else { return }
        throw ServiceError(
            .forbidden, reason: .choreCreationPolicy,
            "This household's chore-creation policy lets only \(Self.describe(policy)) create chores.")
    }

    /// Refuses `scope`'s user editing a chore whose editors rule is `editors` unless they are an
    /// admin, the owner, or admitted by it.
    /// - Throws: `FORBIDDEN` with reason `CHORE_EDITORS`, the message saying who may.
    func ensureMayEdit(_ scope: ChoreScope, editors: GrantedRule) throws {
        guard let access = scope.access.household, !scope.access.isManager else { return }
        guard !Self.admits(editors.rule, access.member) else { return }
        throw ServiceError(.forbidden, reason: .choreEditors, "This chore's editors rule lets only \(Self.describe(editors)) edit it.")
    }

    /// Refuses `scope`'s user unless they are an admin of the household (or the owner of personal
    /// chores): for what only admins do, described by `what` ("delete chores").
    /// - Throws: `FORBIDDEN` with reason `ADMINS_ONLY`.
    func ensureManager(_ scope: ChoreScope, _ what: String) throws {
        guard !scope.access.isManager else { return }
        throw ServiceError(.forbidden, reason: .adminsOnly, "Only the household's admins may \(what).")
    }

    /// Whether `rule` admits `member`.
    static func admits(_ rule: PermissionRule, _ member: MemberRecord) -> Bool {
        rule.admits(memberID: member.id, role: member.role, kind: member.kind)
    }

    /// Who `granted` admits, for people, with `others` it does not name (a chore's assignees,
    /// "every adult") after the admins, each once: "admins, Ben, adults with the member role,
    /// children and Ana". The one wording of every refusal that says who a rule lets do something.
    static func describe(_ granted: GrantedRule, with others: [String] = []) -> String {
        var who = ["admins"] + others
        who += granted.rule.roles.filter { $0 != .admin }.map { "adults with the \($0.rawValue) role" }
        who += granted.rule.kinds.map { kind in
            switch kind {
            case .parent: "parents"
            case .coParent: "co-parents"
            case .child: "children"
            case .shadow: "supervised members"
            }
        }
        who += granted.members.map(\.displayName)
        var named: Set<String> = []
        who = who.filter { named.insert($0).inserted }
        guard who.count > 1 else { return who[0] }
        return who.dropLast().joined(separator: ", ") + " and " + who.last!
    }
}
