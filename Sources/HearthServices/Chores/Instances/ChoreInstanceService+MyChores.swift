import FoundationEssentials
import HearthDomain
import HearthStore

/// Which instances `myChores` shows (FR-54); every condition given must hold.
public struct MyChoresFilter: Sendable, Hashable {
    /// Instances of chores carrying all of these tags (FR-48).
    public var tagIDs: [String]
    /// Instances in one of these states; `[.pending]` when empty.
    public var statuses: [ChoreInstanceStatus]
    /// Only this household's instances (no personal ones).
    public var householdID: String?
    /// Only personal (`true`) or only household (`false`) instances.
    public var isPersonal: Bool?
    /// Due at or after this time.
    public var dueAfter: Date?
    /// Due at or before this time; now plus the horizon when absent.
    public var dueBefore: Date?

    /// Creates the filter.
    public init(
        tagIDs: [String] = [], statuses: [ChoreInstanceStatus] = [], householdID: String? = nil, isPersonal: Bool? = nil,
        dueAfter: Date? = nil, dueBefore: Date? = nil
    ) {
        self.tagIDs = Array(Set(tagIDs)).sorted()
        self.statuses = ChoreInstanceStatus.allCases.filter(statuses.contains)
        self.householdID = householdID
        self.isPersonal = isPersonal
        self.dueAfter = dueAfter
        self.dueBefore = dueBefore
    }
}

/// An instance in `myChores`, with its chore and the access it was read with.
public typealias MyChore = ChoreInstanceService.AccessibleInstance

extension ChoreInstanceService {
    /// The viewer's chores to do (FR-54), across their households and their personal chores, by
    /// due time (then id): the instances of their personal chores, and of each household they are
    /// an active member of those assigned to them (their own instance of a `GROUP` or
    /// `ALL_MEMBERS` chore, an `INDIVIDUAL` chore or a step-less `SINGLE_ACTION` chore of which they
    /// are the assignee, unless someone else claimed it), claimed by them (FR-52), or claimable by
    /// them (a `SINGLE_ACTION` instance nobody claimed that they may complete). A claimed instance
    /// is in its claimant's list only. Instances beyond what is planned are computed (not stored,
    /// so never claimed).
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100, a foreign cursor, or `dueAfter` after
    ///   `dueBefore`; `NOT_FOUND` for a `householdId` of a household they are not in.
    public func myChores(filter: MyChoresFilter = MyChoresFilter(), first: Int? = nil, after: String? = nil, viewer: Viewer) async throws -> InstancePage<MyChore> {
        let (size, cursor) = try InstanceCursor.page(first: first, after: after, kind: .choreInstance, maximum: InstancePage<MyChore>.maximumSize)
        if let from = filter.dueAfter, let to = filter.dueBefore, from > to {
            throw ServiceError.invalid(InputProblems([FieldProblem(field: "filter.dueBefore", reason: .outOfRange, message: "dueBefore is before dueAfter.")]))
        }
        if let householdID = filter.householdID, !GlobalID.mayName(.household, householdID) { throw ServiceError.householdNotFound }
        let through = filter.dueBefore ?? clock.now.addingTimeInterval(configuration.horizonSeconds)
        return try await pool.readPreferringCallingThread { [self] database in
            var found: [MyChore] = []
            let accesses = try accesses(filter, viewer: viewer, in: database)
            for access in accesses {
                let query = MyChoresQuery(filter: filter, cursor: cursor, limit: size + 1, through: through, access: access)
                found += try query.stored(database) + query.unplanned(planner, database)
            }
            let ordered = MyChoresQuery.ordered(found)
            let page = ordered.prefix(size).map { (cursor: InstanceCursor(time: $0.instance.dueAt, id: $0.instance.id).text, node: $0) }
            var result = InstancePage(edges: page, hasNextPage: ordered.count > size, hasPreviousPage: cursor != nil)
            // A full page with more after it does not change as the horizon moves: what comes
            // into it is due after everything it holds. Otherwise it changes when the first
            // instance beyond the horizon comes within it.
            if filter.dueBefore == nil, ordered.count <= size {
                let next = try accesses.compactMap { access in
                    try MyChoresQuery(filter: filter, cursor: cursor, limit: size + 1, through: through, access: access).firstBeyond(planner, database)
                }.min()
                result.changesAt = next.map { $0.addingTimeInterval(-configuration.horizonSeconds) }
            }
            return result
        }
    }

    /// The stamp of what `myChores(filter)` reads for `viewer` (``ChoreViewStamp``), with the same
    /// access checks.
    /// - Throws: `NOT_FOUND` for a `householdId` of a household they are not in.
    public func myChoresStamp(filter: MyChoresFilter = MyChoresFilter(), viewer: Viewer) async throws -> ChoreViewStamp {
        if let householdID = filter.householdID, !GlobalID.mayName(.household, householdID) { throw ServiceError.householdNotFound }
        let now = clock.now
        return try await pool.readPreferringCallingThread { database in
            if let householdID = filter.householdID {
                guard filter.isPersonal != true else { return try ChoreViewStamp.read([], at: now, in: database) }
                return try ChoreViewStamp.household(householdID, viewer: viewer, at: now, in: database)
            }
            guard filter.isPersonal != true else { return try ChoreViewStamp.read([ChoreAccess(personal: Owner(viewer))], at: now, in: database) }
            return try ChoreViewStamp.memberships(of: viewer, personal: filter.isPersonal != false, at: now, in: database)
        }
    }

    /// The scopes `myChores` reads: the viewer's personal chores and each household they are an
    /// active member of, as `filter` narrows them.
    func accesses(_ filter: MyChoresFilter, viewer: Viewer, in database: Database) throws -> [ChoreAccess] {
        if let householdID = filter.householdID {
            guard filter.isPersonal != true else { return [] }
            return [try ChoreAccess.check(viewer: viewer, householdID: householdID, in: database)]
        }
        let accesses: [ChoreAccess] = filter.isPersonal == false ? [] : [ChoreAccess(personal: Owner(viewer))]
        guard filter.isPersonal != true else { return accesses }
        // Every active membership checked in one statement, not a check per household.
        let households = try HouseholdAccess.memberships(of: viewer, in: database).map(\.access).sorted { $0.householdID < $1.householdID }
        return accesses + households.map(ChoreAccess.init)
    }
}

/// One `myChores` read in one scope: the stored instances (one statement) and those beyond what is
/// planned (computed per chore that has some, ``InstancePlanner/unplanned(_:_:from:through:limit:)``).
struct MyChoresQuery {
    let filter: MyChoresFilter
    let cursor: InstanceCursor?
    let limit: Int
    let through: Date
    let access: ChoreAccess
    /// Whether every instance of a household counts (the calendar's view of it), not only the
    /// viewer's (``isTheirs(_:)``).
    var everyone = false

    /// The columns of `chore_instances i` and `chores c` the reads below decode, written once.
    private static let instanceColumns = ChoreInstanceRecord.columns.qualified(by: "i")
    private static let choreColumns = ChoreRecord.columns.qualified(by: "c")

    private var statuses: [ChoreInstanceStatus] { filter.statuses.isEmpty ? [.pending] : filter.statuses }

    /// The stored instances of the scope that are the viewer's, in order, at most ``limit``.
    func stored(_ database: Database) throws -> [MyChore] {
        var sql = """
            SELECT \(Self.instanceColumns) FROM chore_instances i JOIN chores c ON c.id = i.chore_id
            WHERE i.{scope} AND c.deleted_at IS NULL AND \(ChoreInstanceRecord.statusCondition(statuses, alias: "i")) AND i.due_at <= ?
            """
        var arguments: [(any DatabaseValueConvertible)?] = ChoreInstanceRecord.statusArguments(statuses) + [through]
        if let from = filter.dueAfter {
            sql += " AND i.due_at >= ?"
            arguments.append(from)
        }
        if let cursor {
            sql += " AND (i.due_at, i.id) > (?, ?)"
            arguments += [cursor.time, cursor.id]
        }
        if !filter.tagIDs.isEmpty {
            sql += """
                 AND (SELECT count(*) FROM chore_tags ct WHERE ct.chore_id = i.chore_id AND ct.tag_id IN (\(ChoreReferences.placeholders(filter.tagIDs.count)))) = ?
                """
            arguments += filter.tagIDs.map { $0 } + [filter.tagIDs.count]
        }
        if !everyone, let member = access.household?.member {
            sql += " AND " + Self.isTheirs(member)
            arguments += Self.isTheirsArguments(member)
        }
        sql += " ORDER BY i.due_at, i.id LIMIT ?"
        let scope = access.scope(database)
        let instances = try scope.query(sql, StatementArguments(arguments + [limit])).map(ChoreInstanceRecord.init(row:))
        let choreIDs = Array(Set(instances.map(\.choreID))).sorted()
        guard !choreIDs.isEmpty else { return [] }
        let chores = Dictionary(uniqueKeysWithValues: try scope.decode(
            ChoreRecord.self, "SELECT \(ChoreRecord.columns) FROM chores WHERE {scope} AND id IN (\(ChoreReferences.placeholders(choreIDs.count)))",
            ChoreReferences.arguments(choreIDs)
        ).map { ($0.id, $0) })
        return instances.compactMap { instance in chores[instance.choreID].map { (instance, $0, access) } }
    }

    /// The instances of the scope beyond what is planned that are the viewer's.
    func unplanned(_ planner: InstancePlanner, _ database: Database) throws -> [MyChore] {
        guard statuses.contains(.pending) else { return [] }
        let scope = access.scope(database)
        let from = [filter.dueAfter, cursor?.time].compactMap { $0 }.max() ?? .distantPast
        let chores = try scope.decode(
            ChoreRecord.self,
            """
            SELECT \(Self.choreColumns) FROM chore_plans p JOIN chores c ON c.id = p.chore_id
            WHERE p.{scope} AND c.deleted_at IS NULL AND p.next_unplanned_at IS NOT NULL AND p.next_unplanned_at <= ? ORDER BY c.id
            """,
            [through])
        guard !chores.isEmpty else { return [] }
        let tags = filter.tagIDs.isEmpty ? [:] : try ChoreDetails.tags(of: chores.map(\.id), scope)
        // Who each chore is for, read for all of them at once (one statement per kind, not per chore).
        // (Not needed when every instance counts.)
        let details = everyone ? nil : try access.household.map { _ in
            (assignees: try ChoreDetails.assignees(of: chores, scope), rules: try ChoreDetails.rules(of: chores.map(\.id), scope))
        }
        var found: [MyChore] = []
        for chore in chores where Set(filter.tagIDs).isSubset(of: Set((tags[chore.id] ?? []).map(\.id))) {
            let rules = details.map { details in
                CompletionRules(chore: chore, assignees: details.assignees[chore.id] ?? [], rules: details.rules[chore.id] ?? ChoreRuleSet())
            }
            for instance in try planner.unplanned(chore, scope, from: from, through: through, limit: limit) {
                if let cursor, (instance.dueAt, instance.id) <= (cursor.time, cursor.id) { continue }
                if let member = access.household?.member, let rules, !Self.isTheirs(instance, chore, rules, member) { continue }
                found.append((instance, chore, access))
            }
        }
        return found
    }

    /// `found` by due time then id, each instance once (a computed one may repeat a stored one).
    static func ordered(_ found: [MyChore]) -> [MyChore] {
        var seen = Set<String>()
        return found.sorted { ($0.instance.dueAt, $0.instance.id) < ($1.instance.dueAt, $1.instance.id) }.filter { seen.insert($0.instance.id).inserted }
    }

    /// The earliest due time after ``through`` of any instance of the scope, stored or still to be
    /// planned, whoever's it is (an earlier time than the page needs only makes a cache rebuild it
    /// sooner); `nil` when there is none.
    func firstBeyond(_ planner: InstancePlanner, _ database: Database) throws -> Date? {
        let scope = access.scope(database)
        let stored = try scope.scalar(Date.self, "SELECT min(due_at) FROM chore_instances WHERE {scope} AND due_at > ?", [through])
        let planned = try scope.scalar(
            Date.self, "SELECT min(next_unplanned_at) FROM chore_plans WHERE {scope} AND next_unplanned_at > ?", [through])
        // Chores already beyond their plan within the horizon: their next computed occurrence.
        let unplanned = try scope.decode(
            ChoreRecord.self,
            """
            SELECT \(Self.choreColumns) FROM chore_plans p JOIN chores c ON c.id = p.chore_id
            WHERE p.{scope} AND c.deleted_at IS NULL AND p.next_unplanned_at IS NOT NULL AND p.next_unplanned_at <= ?
            """,
            [through])
        let computed = try unplanned.compactMap { chore in
            try planner.unplanned(chore, scope, from: through.addingTimeInterval(0.001), through: .distantFuture, limit: 1).map(\.dueAt).min()
        }
        return ([stored, planned].compactMap { $0 } + computed).min()
    }

    /// Whether a computed instance is `member`'s in the sense of ``isTheirs(_:)``.
    static func isTheirs(_ instance: ChoreInstanceRecord, _ chore: ChoreRecord, _ rules: CompletionRules, _ member: MemberRecord) -> Bool {
        if let holder = instance.reassignedTo { return holder == member.id }
        if let owner = instance.memberID { return owner == member.id }
        if rules.assignees.contains(where: { $0.member.id == member.id }) { return true }
        return chore.assignmentMode == .singleAction && rules.admits(member, instance, step: nil)
    }

    /// The SQL condition (over `chore_instances i` and `chores c`) of an instance being `member`'s:
    /// claimed by them (a claim takes it from whoever held it); else, while nobody claimed it,
    /// handed to them while the member it is for is away or gone (vacation mode, departures); else,
    /// unless it was handed to someone, their own, assigned to them or a `SINGLE_ACTION` one they
    /// may complete (claim).
    /// For a household's scope only (it names `{household}`).
    static func isTheirs(_ member: MemberRecord) -> String {
        let eligible: String
        if member.role == .admin {
            eligible = "1 = 1"
        } else {
            let grants = """
                SELECT 1 FROM chore_grants g WHERE g.household_id = {household} AND g.chore_id = i.chore_id AND g.action = 'complete'
                AND g.step_id IS NULL
                """
            let admitted = member.kind.isAdult ? "(g.member_id = ? OR g.member_kind = ? OR g.role = ?)" : "(g.member_id = ? OR g.member_kind = ?)"
            eligible = "EXISTS (\(grants) AND \(admitted))" + (member.kind.isAdult ? " OR NOT EXISTS (\(grants))" : "")
        }
        return """
            (i.claimant_id = ? OR (i.claimant_id IS NULL AND (i.reassigned_to = ? OR (i.reassigned_to IS NULL AND (
            i.member_id = ? OR (i.member_id IS NULL AND (
                EXISTS (SELECT 1 FROM chore_assignees a WHERE a.household_id = {household} AND a.chore_id = i.chore_id AND a.member_id = ?)
                OR (c.assignment_mode = 'single_action' AND (\(eligible))))))))))
            """
    }

    /// The arguments of ``isTheirs(_:)``, in order.
    static func isTheirsArguments(_ member: MemberRecord) -> [(any DatabaseValueConvertible)?] {
        var arguments: [(any DatabaseValueConvertible)?] = [member.id, member.id, member.id, member.id]
        if member.role != .admin {
            arguments += [member.id, member.kind.rawValue]
            if member.kind.isAdult { arguments.append(member.role.rawValue) }
        }
        return arguments
    }
}
