import HearthDomain
import HearthStore
import Support

/// One page of a household's members (`Household.members`, a Relay cursor connection): admins
/// first, then by when they joined, then by id, so the order is total and stable.
public struct MemberPage: Sendable, Equatable {
    /// The most members one page holds, and the page size when neither `first` nor `last` is given.
    public static let maximumSize = 100

    /// The members of the page, in order, each with the cursor that points at it.
    public var edges: [MemberEdge]
    /// Whether members follow the page.
    public var hasNextPage: Bool
    /// Whether members precede the page.
    public var hasPreviousPage: Bool
    /// How many members the list has in all, invited ones included (departed ones when asked for).
    public var totalCount: Int

    /// The bytes the page holds (its members' records, cursors and edges), roughly: what a
    /// cache keeping it counts.
    public var retainedBytes: Int { 256 + edges.count * 640 }

    /// The first member's cursor.
    public var startCursor: String? { edges.first?.cursor }
    /// The last member's cursor.
    public var endCursor: String? { edges.last?.cursor }
}

/// A member of a ``MemberPage`` and where it is in the list.
public struct MemberEdge: Sendable, Equatable {
    /// The member.
    public var member: MemberRecord
    let position: MemberCursor

    /// The opaque cursor that points at the member: made when asked for, since most pages are
    /// shown without their cursors.
    public var cursor: String { position.text }
}

/// Where a member is in the order of ``MemberPage``, as an opaque cursor: the base64url text of
/// the sort key (admin first, joining time as stored, id).
struct MemberCursor: Hashable, Sendable {
    /// 0 for admins, 1 for members: the SQL expression ``rankSQL``.
    var rank: Int
    /// `joined_at` as stored (ISO 8601 text, which sorts chronologically).
    var joinedAt: String
    var id: String

    /// The rank as SQL computes it from `members.role`.
    static let rankSQL = "(role <> 'admin')"

    /// The position of `member`, whose `joined_at` is stored as `joinedAt`.
    init(_ member: MemberRecord, joinedAt: String) {
        rank = member.role == .admin ? 0 : 1
        self.joinedAt = joinedAt
        id = member.id
    }

    /// The cursor `text` names, `nil` when it is not one of ours.
    init?(_ text: String) {
        guard text.utf8.count <= 200, let bytes = Base64URL.decode(text) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let rank = Int(parts[0]), rank == 0 || rank == 1, !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
        self.rank = rank
        joinedAt = String(parts[1])
        id = String(parts[2])
    }

    /// The opaque text.
    var text: String { Base64URL.encode(Array("\(rank)|\(joinedAt)|\(id)".utf8)) }

    /// The cursor's sort key as SQL arguments, in the order of `(rank, joined_at, id)`.
    var arguments: [(any DatabaseValueConvertible)?] { [rank, joinedAt, id] }
}

extension MemberPage {
    /// The list's order as an SQL row value; index `members_page` (migration 0015) holds it.
    static let sortKey = "(\(MemberCursor.rankSQL), joined_at, id)"

    /// The statement reading a page of the members of a household (its scope's `{household}`)
    /// with how many the whole list holds: departed members only when `includeDeparted`; after the
    /// key `(?, ?, ?)` of `after`'s cursor and before that of `before`'s when given; in list order
    /// or backward; at most `?` rows.
    static func statement(includeDeparted: Bool, after: Bool, before: Bool, backward: Bool) -> String {
        statements[(after ? 1 : 0) + (before ? 2 : 0) + (backward ? 4 : 0) + (includeDeparted ? 8 : 0)]
    }

    /// Where a page's row has `joined_at` as stored (for the cursor) and the list's count: read
    /// by position, since looking a column up by name cost as much as reading the member.
    static let joinedAtColumn = MemberRecord.columns.names.firstIndex(of: "joined_at")!
    static let totalCountColumn = MemberRecord.columns.count

    /// The condition that leaves departed members out of a list, unless it includes them.
    static func listed(includeDeparted: Bool) -> String {
        includeDeparted ? "" : " AND status <> 'departed'"
    }

    /// The statements of every shape, built once: building one per page cost more than reading it.
    private static let statements: [String] = (0..<16).map { shape in
        let listed = listed(includeDeparted: shape & 8 != 0)
        let after = shape & 1 != 0 ? " AND \(sortKey) > (?, ?, ?)" : ""
        let before = shape & 2 != 0 ? " AND \(sortKey) < (?, ?, ?)" : ""
        let direction = shape & 4 != 0 ? "DESC" : "ASC"
        return """
            SELECT \(MemberRecord.columns), (SELECT count(*) FROM members WHERE household_id = {household}\(listed)) AS total_count
            FROM members WHERE household_id = {household}\(listed)\(after)\(before)
            ORDER BY \(MemberCursor.rankSQL) \(direction), joined_at \(direction), id \(direction) LIMIT ?
            """
    }
}

extension MemberPage {
    /// Reads the page `query` asks for of the household of `scope`.
    static func read(_ query: MemberPageQuery, _ scope: HouseholdScope) throws -> MemberPage {
        let backward = query.last != nil
        let size = (backward ? query.last : query.first) ?? maximumSize
        let listed = listed(includeDeparted: query.includeDeparted)
        // The count comes with the page, as a subquery SQL evaluates once; only an empty page
        // needs a statement of its own for it.
        var totalCount: Int?
        // Room for the page and the one row past it that tells whether more follow: growing the
        // array copied the members read so far, each copy retaining every field of their records.
        var edges: [MemberEdge] = []
        edges.reserveCapacity(size + 1)
        try scope.forEachRow(
            statement(includeDeparted: query.includeDeparted, after: query.after != nil, before: query.before != nil, backward: backward),
            StatementArguments((query.after?.arguments ?? []) + (query.before?.arguments ?? []) + [size + 1])
        ) { row in
            let member = try row.decode(MemberRecord.self)
            edges.append(MemberEdge(member: member, position: MemberCursor(member, joinedAt: try row[joinedAtColumn])))
            totalCount = try row[totalCountColumn]
        }
        // The statement reads at most one row more than the page (`LIMIT size + 1`); it is dropped
        // in place rather than the page copied.
        let hasMore = edges.count > size
        if hasMore { edges.removeLast() }
        if backward { edges.reverse() }
        func exists(_ comparison: String, _ cursor: MemberCursor?) throws -> Bool {
            guard let cursor else { return false }
            return try scope.scalar(
                Bool.self,
                "SELECT EXISTS (SELECT 1 FROM members WHERE household_id = {household}\(listed) AND \(sortKey) \(comparison) (?, ?, ?))",
                StatementArguments(cursor.arguments)) ?? false
        }
        return MemberPage(
            edges: edges,
            hasNextPage: backward ? try exists(">=", query.before) : hasMore,
            hasPreviousPage: backward ? hasMore : try exists("<=", query.after),
            totalCount: try totalCount ?? scope.scalar(Int.self, "SELECT count(*) FROM members WHERE household_id = {household}\(listed)") ?? 0)
    }
}

extension HouseholdService {
    /// A page of the members of the household `access` grants (invited ones included, departed
    /// ones only when `includeDeparted`): after the cursor `after` and before `before`, the first
    /// `first` or the last `last` of them (``MemberPage/maximumSize`` when neither is given). `hasPreviousPage` and `hasNextPage`
    /// follow the Relay specification: when paging forward, `hasPreviousPage` says whether
    /// members precede `after`; when paging backward, `hasNextPage` whether members follow `before`.
    /// - Throws: `BAD_USER_INPUT` (every problem at once) for a negative or over-100 `first` or
    ///   `last`, both given, or a cursor that is not one of ours.
    public func members(
        _ access: HouseholdAccess, first: Int? = nil, after: String? = nil, last: Int? = nil, before: String? = nil,
        includeDeparted: Bool = false
    ) async throws -> MemberPage {
        try await members(access, MemberPageQuery(first: first, after: after, last: last, before: before, includeDeparted: includeDeparted))
    }

    /// The page `query` asks for of the members of the household `access` grants (kept while
    /// nothing commits, ``HouseholdKeptReads``).
    public func members(_ access: HouseholdAccess, _ query: MemberPageQuery) async throws -> MemberPage {
        try await memberPage(query, access, at: keptReadMark())
    }
}
