import HearthDomain
import HearthStore

extension ChoreService {
    /// Chore `id` when `viewer` may see it: a chore of a household they are an active member of,
    /// one of their personal chores, or another user's personal chore shared with them (read-only).
    /// - Throws: `NOT_FOUND` otherwise (unknown, deleted, another household's or user's, alike).
    public func chore(id: String, viewer: Viewer) async throws -> AccessibleChore {
        guard GlobalID.mayName(.chore, id) else { throw ServiceError.choreNotFound }
        return try await pool.readPreferringCallingThread { database in
            let access = try ChoreAccess.check(viewer: viewer, owning: .chores, id: id, readingShared: true, in: database)
            return (try ChoreRecord.find(id: id, access.scope(database)), access)
        }
    }

    /// A page of the chores of `householdID` (FR-55), or of `viewer`'s personal chores when it is
    /// `nil`, filtered by `filter`: the first `first` (at most 100, 100 when `nil`) after `after`.
    /// - Throws: `NOT_FOUND` for a household the viewer is not in; `BAD_USER_INPUT` for `first`
    ///   outside 0–100 or a cursor this list did not give out.
    public func chores(
        householdID: String?, filter: ChoreFilter = ChoreFilter(), first: Int? = nil, after: String? = nil, viewer: Viewer
    ) async throws -> ChorePage {
        let (size, cursor) = try Self.pageBounds(first: first, after: after)
        if let householdID, !GlobalID.mayName(.household, householdID) { throw ServiceError.householdNotFound }
        return try await pool.readPreferringCallingThread { database in
            let access = try ChoreAccess.check(viewer: viewer, householdID: householdID, in: database)
            let (conditions, arguments) = Self.conditions(filter)
            return try Self.page(access.scope(database), conditions: conditions, arguments, size: size, after: cursor)
        }
    }

    /// `first` and `after` of a chore list checked: the page size (100 when absent) and the cursor.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 0–100 or a cursor a chore list did not give out.
    static func pageBounds(first: Int?, after: String?) throws -> (size: Int, cursor: ChoreCursor?) {
        var problems = ProblemCollector()
        if let first, !(0...ChorePage.maximumSize).contains(first) {
            problems.add(FieldProblem(field: "first", reason: .outOfRange, message: "Ask for 0 to \(ChorePage.maximumSize) chores at a time."))
        }
        let cursor = after.flatMap { text -> ChoreCursor? in
            guard let cursor = ChoreCursor(text) else {
                problems.add(FieldProblem(field: "after", reason: .invalidFormat, message: "This cursor is not one this list gave out."))
                return nil
            }
            return cursor
        }
        try problems.throwIfAny()
        return (first ?? ChorePage.maximumSize, cursor)
    }

    /// A page of the chores of `scope` (not deleted) meeting `conditions` (each starting with
    /// ` AND `, with `arguments`), by title: the first `size` after `cursor`.
    static func page(
        _ scope: ChoreScope, conditions: String, _ arguments: [(any DatabaseValueConvertible)?], size: Int, after cursor: ChoreCursor?
    ) throws -> ChorePage {
        var (conditions, arguments) = (conditions, arguments)
        let total = try scope.scalar(
            Int.self, "SELECT count(*) FROM chores WHERE {scope} AND deleted_at IS NULL\(conditions)", StatementArguments(arguments)) ?? 0
        if let cursor {
            conditions += " AND (title_key, id) > (?, ?)"
            arguments += [cursor.titleKey, cursor.id]
        }
        let rows = try scope.query(
            """
            SELECT \(ChoreRecord.columns), title_key FROM chores WHERE {scope} AND deleted_at IS NULL\(conditions)
            ORDER BY title_key, id LIMIT ?
            """,
            StatementArguments(arguments + [size + 1]))
        let edges = try rows.prefix(size).map { row in
            let chore = try row.decode(ChoreRecord.self)
            return (cursor: ChoreCursor(titleKey: try row["title_key"], id: chore.id).text, chore: chore)
        }
        return ChorePage(
            edges: edges, hasNextPage: rows.count > size,
            hasPreviousPage: try cursor.map { try Self.exists(before: $0, scope) } ?? false, totalCount: total, access: scope.access)
    }

    /// The SQL conditions (each starting with ` AND `) and arguments of `filter`.
    private static func conditions(_ filter: ChoreFilter) -> (String, [(any DatabaseValueConvertible)?]) {
        var sql = ""
        var arguments: [(any DatabaseValueConvertible)?] = []
        if filter.statuses != ChoreStatus.allCases {
            sql += filter.statuses == [.active] ? " AND archived_at IS NULL" : " AND archived_at IS NOT NULL"
        }
        if !filter.assignmentModes.isEmpty {
            sql += " AND assignment_mode IN (\(ChoreReferences.placeholders(filter.assignmentModes.count)))"
            arguments += filter.assignmentModes.map(\.rawValue)
        }
        if !filter.tagIDs.isEmpty {
            // Every tag: as many of the chore's tags among them as there are tags.
            sql += """
                 AND (SELECT count(*) FROM chore_tags ct WHERE ct.chore_id = chores.id AND ct.tag_id IN (\(ChoreReferences.placeholders(filter.tagIDs.count)))) = ?
                """
            arguments += filter.tagIDs.map { $0 } + [filter.tagIDs.count]
        }
        return (sql, arguments)
    }

    /// Whether any chore of `scope` precedes `cursor` (unfiltered: `hasPreviousPage` may be
    /// approximate, as the Relay specification allows).
    private static func exists(before cursor: ChoreCursor, _ scope: ChoreScope) throws -> Bool {
        try scope.scalar(
            Bool.self, "SELECT EXISTS (SELECT 1 FROM chores WHERE {scope} AND deleted_at IS NULL AND (title_key, id) <= (?, ?))",
            [cursor.titleKey, cursor.id]) ?? false
    }

    // MARK: - Related rows of many chores (batched by the API's loaders)

    /// The assignees of `chores` (all granted by `access`), by chore id (``ChoreDetails/assignees(of:_:)``).
    public func assignees(of chores: [ChoreRecord], access: ChoreAccess) async throws -> [String: [ChoreAssignee]] {
        try await pool.readPreferringCallingThread { try Self.assignees(of: chores, access: access, in: SharedRead(database: $0)) }
    }

    /// ``assignees(of:access:)`` in a shared read.
    public static func assignees(of chores: [ChoreRecord], access: ChoreAccess, in read: SharedRead) throws -> [String: [ChoreAssignee]] {
        try ChoreDetails.assignees(of: chores, access.scope(read.database))
    }

    /// The steps of `choreIDs` (all granted by `access`), by chore id.
    public func steps(of choreIDs: [String], access: ChoreAccess) async throws -> [String: [ChoreStepRecord]] {
        try await pool.readPreferringCallingThread { try Self.steps(of: choreIDs, access: access, in: SharedRead(database: $0)) }
    }

    /// ``steps(of:access:)`` in a shared read.
    public static func steps(of choreIDs: [String], access: ChoreAccess, in read: SharedRead) throws -> [String: [ChoreStepRecord]] {
        try ChoreDetails.steps(of: choreIDs, access.scope(read.database))
    }

    /// The tags of `choreIDs` (all granted by `access`), by chore id; none for chores shared with
    /// the viewer (the owner's tags stay theirs: FR-40).
    public func tags(of choreIDs: [String], access: ChoreAccess) async throws -> [String: [TagRecord]] {
        try await pool.readPreferringCallingThread { try Self.tags(of: choreIDs, access: access, in: SharedRead(database: $0)) }
    }

    /// ``tags(of:access:)`` in a shared read.
    public static func tags(of choreIDs: [String], access: ChoreAccess, in read: SharedRead) throws -> [String: [TagRecord]] {
        guard !access.isShared else { return [:] }
        return try ChoreDetails.tags(of: choreIDs, access.scope(read.database))
    }

    /// The permission rules of `choreIDs` (all granted by `access`), by chore id.
    public func rules(of choreIDs: [String], access: ChoreAccess) async throws -> [String: ChoreRuleSet] {
        try await pool.readPreferringCallingThread { try Self.rules(of: choreIDs, access: access, in: SharedRead(database: $0)) }
    }

    /// ``rules(of:access:)`` in a shared read.
    public static func rules(of choreIDs: [String], access: ChoreAccess, in read: SharedRead) throws -> [String: ChoreRuleSet] {
        try ChoreDetails.rules(of: choreIDs, access.scope(read.database))
    }

    /// The household `access` grants, in a shared read.
    public static func household(_ access: HouseholdAccess, in read: SharedRead) throws -> HouseholdRecord {
        try HouseholdRecord.find(HouseholdScope(access, read.database))
    }
}
