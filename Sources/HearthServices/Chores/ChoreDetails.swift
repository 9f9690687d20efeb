import HearthDomain
import HearthStore

/// The related rows of many chores of one scope, one query per kind of row whatever the number
/// of chores: what lists show beside each chore without a query per chore (FR-55), and what an
/// edit starts from. Each function reads inside the caller's transaction.
enum ChoreDetails {
    /// The columns of `members m` and `tags t` the reads below decode, written once (lists read
    /// these on every fresh build).
    private static let memberColumns = MemberRecord.columns(of: "m")
    private static let tagColumns = TagRecord.columns.qualified(by: "t")

    /// The assignees of `chores`, by chore id, in order: the stored ones, and for `allMembers`
    /// chores every active member (admins first, then by joining). Personal chores have none.
    static func assignees(of chores: [ChoreRecord], _ scope: ChoreScope) throws -> [String: [ChoreAssignee]] {
        guard let household = scope.household, !chores.isEmpty else { return [:] }
        var found: [String: [ChoreAssignee]] = [:]
        let stored = chores.filter { $0.assignmentMode != .allMembers }.map(\.id)
        if !stored.isEmpty {
            try household.forEachRow(
                """
                SELECT a.chore_id, \(memberColumns), u.avatar_id
                FROM chore_assignees a JOIN members m ON m.id = a.member_id LEFT JOIN users u ON u.id = m.user_id
                WHERE a.household_id = {household} AND a.chore_id IN (\(ChoreReferences.placeholders(stored.count)))
                ORDER BY a.chore_id, a.position
                """,
                ChoreReferences.arguments(stored)
            ) { row in found[try row["chore_id"], default: []].append(try ChoreAssignee(row)) }
        }
        let everyone = chores.filter { $0.assignmentMode == .allMembers }.map(\.id)
        if !everyone.isEmpty {
            let members = try household.query(
                """
                SELECT \(memberColumns), u.avatar_id FROM members m LEFT JOIN users u ON u.id = m.user_id
                WHERE m.household_id = {household} AND m.status = 'active' ORDER BY (m.role <> 'admin'), m.joined_at, m.id
                """
            ).map(ChoreAssignee.init)
            for id in everyone { found[id] = members }
        }
        return found
    }

    /// The steps of `choreIDs`, by chore id, in order, with their assignees.
    static func steps(of choreIDs: [String], _ scope: ChoreScope) throws -> [String: [ChoreStepRecord]] {
        guard !choreIDs.isEmpty else { return [:] }
        var found: [String: [ChoreStepRecord]] = [:]
        try scope.query(
            """
            SELECT s.id AS step_id, s.chore_id, s.position, s.title, s.assignee_id, \(memberColumns), u.avatar_id
            FROM chore_steps s LEFT JOIN members m ON m.id = s.assignee_id LEFT JOIN users u ON u.id = m.user_id
            WHERE s.{scope} AND s.chore_id IN (\(ChoreReferences.placeholders(choreIDs.count)))
            ORDER BY s.chore_id, s.position
            """,
            ChoreReferences.arguments(choreIDs)
        ).forEach { row in
            let assigneeID: String? = try row["assignee_id"]
            let step = ChoreStepRecord(
                id: try row["step_id"], choreID: try row["chore_id"], position: try row["position"], title: try row["title"],
                assignee: try assigneeID.map { _ in try ChoreAssignee(row) })
            found[step.choreID, default: []].append(step)
        }
        return found
    }

    /// The tags of `choreIDs`, by chore id, by name.
    static func tags(of choreIDs: [String], _ scope: ChoreScope) throws -> [String: [TagRecord]] {
        guard !choreIDs.isEmpty else { return [:] }
        var found: [String: [TagRecord]] = [:]
        try scope.query(
            """
            SELECT ct.chore_id, \(tagColumns) FROM chore_tags ct JOIN tags t ON t.id = ct.tag_id
            WHERE ct.{scope} AND ct.chore_id IN (\(ChoreReferences.placeholders(choreIDs.count))) ORDER BY t.name_key, t.id
            """,
            ChoreReferences.arguments(choreIDs)
        ).forEach { row in found[try row["chore_id"], default: []].append(try row.decode(TagRecord.self)) }
        return found
    }

    /// The permission rules of `choreIDs`, by chore id (personal chores have none).
    static func rules(of choreIDs: [String], _ scope: ChoreScope) throws -> [String: ChoreRuleSet] {
        guard let household = scope.household, !choreIDs.isEmpty else { return [:] }
        var found: [String: ChoreRuleSet] = [:]
        try household.forEachRow(
            """
            SELECT \(PermissionGrants.columns) FROM chore_grants g LEFT JOIN members m ON m.id = g.member_id
            WHERE g.household_id = {household} AND g.chore_id IN (\(ChoreReferences.placeholders(choreIDs.count)))
            """,
            ChoreReferences.arguments(choreIDs)
        ) { row in
            let choreID: String = try row["chore_id"]
            var rules = found[choreID] ?? ChoreRuleSet()
            if let stepID: String = try row["step_id"] {
                try rules.steps[stepID, default: GrantedRule()].add(row)
            } else if try row["action"] as String == PermissionGrants.Action.edit.rawValue {
                try rules.editors.add(row)
            } else {
                try rules.completers.add(row)
            }
            found[choreID] = rules
        }
        return found
    }
}
