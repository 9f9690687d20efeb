import HearthDomain
import HearthStore

/// The rows of `chore_grants` (migration 0012): the household's chore-creation policy
/// (`action = 'create'`, no chore), each chore's completion and editors rules, and steps'
/// completion overrides. One row per role, kind or member a rule admits.
enum PermissionGrants {
    /// What a grant lets do (`chore_grants.action`).
    enum Action: String {
        case create, complete, edit
    }

    /// Writes `rule` as the grants of `action` (on `choreID` and `stepID` when given), in the
    /// household of `scope`. The caller removed the grants it replaces.
    static func insert(_ rule: PermissionRule, _ action: Action, choreID: String?, stepID: String? = nil, _ scope: HouseholdScope) throws {
        let sql = """
            INSERT INTO chore_grants (household_id, chore_id, step_id, action, role, member_kind, member_id)
            VALUES ({household}, ?, ?, ?, ?, ?, ?)
            """
        for role in rule.roles { try scope.execute(sql, [choreID, stepID, action.rawValue, role.rawValue, nil, nil]) }
        for kind in rule.kinds { try scope.execute(sql, [choreID, stepID, action.rawValue, nil, kind.rawValue, nil]) }
        for member in rule.memberIDs { try scope.execute(sql, [choreID, stepID, action.rawValue, nil, nil, member]) }
    }

    /// The columns a grants query selects for ``GrantedRule/add(_:)`` from `chore_grants g` and
    /// `members m`: the grant, and its member's columns under their own names.
    static let columns = """
        g.chore_id, g.step_id, g.action, g.role AS grant_role, g.member_kind AS grant_kind, g.member_id AS grant_member, \
        \(MemberRecord.columns(of: "m"))
        """

    /// The household's chore-creation policy (FR-25).
    static func policy(_ scope: HouseholdScope) throws -> GrantedRule {
        var granted = GrantedRule()
        try scope.forEachRow(
            """
            SELECT \(columns) FROM chore_grants g LEFT JOIN members m ON m.id = g.member_id
            WHERE g.household_id = {household} AND g.action = 'create'
            """
        ) { try granted.add($0) }
        return granted
    }
}

/// A permission rule as read back, with the records of the members it names (to show their names).
public struct GrantedRule: Sendable, Hashable {
    /// The rule.
    public var rule = PermissionRule.nobody
    /// The members the rule names, by id.
    public var members: [MemberRecord] = []

    /// The rule that admits nobody.
    public init() {}

    /// Adds the grant of `row` (``PermissionGrants/columns``) and its member.
    mutating func add(_ row: Row) throws {
        if let role = (try row["grant_role"] as String?).flatMap(MemberRole.init(rawValue:)) {
            rule = PermissionRule(roles: rule.roles + [role], kinds: rule.kinds, memberIDs: rule.memberIDs)
        } else if let kind = (try row["grant_kind"] as String?).flatMap(MemberKind.init(rawValue:)) {
            rule = PermissionRule(roles: rule.roles, kinds: rule.kinds + [kind], memberIDs: rule.memberIDs)
        } else if let memberID: String = try row["grant_member"] {
            rule = PermissionRule(roles: rule.roles, kinds: rule.kinds, memberIDs: rule.memberIDs + [memberID])
            members.append(try row.decode(MemberRecord.self))
            members.sort { $0.id < $1.id }
        }
    }
}
