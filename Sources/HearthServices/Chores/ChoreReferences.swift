import HearthDomain
import HearthStore

/// The members and tags a chore request names, looked up in the chore's household (or among the
/// owner's tags) in one query each, inside the caller's transaction.
///
/// An id that is unknown, malformed, of another type or of another household answers the same
/// `NOT_FOUND`, naming the input field, so ids of other households reveal nothing.
enum ChoreReferences {
    /// Every member `fields` names (assignees, step assignees, members of rules), by id.
    /// - Throws: `NOT_FOUND` for one that is not a member of the household of `scope`;
    ///   `BAD_USER_INPUT` (`NOT_ALLOWED`) for one who is invited or has left.
    static func members(named fields: ChoreFields, _ scope: HouseholdScope) throws -> [String: MemberRecord] {
        var named: [(id: String, field: String)] = []
        named += (fields.assigneeIDs ?? []).enumerated().map { ($1, "input.assigneeIds[\($0)]") }
        named += ruleMembers(fields.completers, field: "input.completers")
        named += ruleMembers(fields.editors, field: "input.editors")
        for (index, step) in (fields.steps ?? []).enumerated() {
            if let id = step.assigneeID { named.append((id, "input.steps[\(index)].assigneeId")) }
            named += ruleMembers(step.completers, field: "input.steps[\(index)].completers")
        }
        return try members(named, scope)
    }

    /// The members of `rule`, for rules given on their own (the creation policy).
    static func ruleMembers(_ rule: PermissionRule?, field: String) -> [(id: String, field: String)] {
        (rule?.memberIDs ?? []).enumerated().map { ($1, "\(field).memberIds[\($0)]") }
    }

    /// The members `named`, each active in the household of `scope`.
    /// - Throws: `NOT_FOUND` or `BAD_USER_INPUT` as ``members(named:_:)``.
    static func members(_ named: [(id: String, field: String)], _ scope: HouseholdScope) throws -> [String: MemberRecord] {
        let ids = Array(Set(named.map(\.id).filter { GlobalID.mayName(.member, $0) })).sorted()
        var found: [String: MemberRecord] = [:]
        if !ids.isEmpty {
            for member in try scope.decode(
                MemberRecord.self,
                "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND id IN (\(placeholders(ids.count)))",
                arguments(ids)) {
                found[member.id] = member
            }
        }
        var problems = ProblemCollector()
        for (id, field) in named {
            guard let member = found[id] else {
                throw ServiceError(.notFound, "No such member.", problems: [FieldProblem(field: field, reason: .unknownValue, message: "No such member.")])
            }
            if member.status != .active {
                problems.add(FieldProblem(
                    field: field, reason: .notAllowed,
                    message: member.status == .invited ? "This person has not joined yet." : "This person has left the household."))
            }
        }
        try problems.throwIfAny()
        return found
    }

    /// Checks that every tag of `tagIDs` is one of the household's (or, for personal chores, the owner's).
    /// - Throws: `NOT_FOUND` naming `input.tagIds[i]` otherwise.
    static func checkTags(_ tagIDs: [String], _ scope: ChoreScope, field: String = "input.tagIds") throws {
        try checkOwned(tagIDs, .tags, scope, field: field)
    }

    /// Checks that every id of `ids` names a row of `table` of `scope` (a chore not deleted).
    /// - Throws: `NOT_FOUND` (the table's) naming `field[i]` for the first that does not.
    /// `field` is the list's path, each id's `field[i]`; or, with `indexed` false, the one id's path.
    static func checkOwned(_ ids: [String], _ table: ChoreAccess.OwnedTable, _ scope: ChoreScope, field: String, indexed: Bool = true) throws {
        let candidates = ids.filter { GlobalID.mayName(table.kind, $0) }
        var found: Set<String> = []
        if !candidates.isEmpty {
            let sql = table == .chores
                ? "SELECT id FROM chores WHERE {scope} AND deleted_at IS NULL AND id IN (\(placeholders(candidates.count)))"
                : "SELECT id FROM tags WHERE {scope} AND id IN (\(placeholders(candidates.count)))"
            for row in try scope.query(sql, arguments(candidates)) { found.insert(try row["id"]) }
        }
        for (index, id) in ids.enumerated() where !found.contains(id) {
            let message = table.notFound.message
            throw ServiceError(.notFound, message, problems: [FieldProblem(field: indexed ? "\(field)[\(index)]" : field, reason: .unknownValue, message: message)])
        }
    }

    /// `count` comma-separated placeholders.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `ids` as the arguments of ``placeholders(_:)``.
    static func arguments(_ ids: [String]) -> StatementArguments {
        StatementArguments(ids.map { $0 as (any DatabaseValueConvertible)? })
    }
}
