import FoundationEssentials
import HearthDomain
import HearthStore

/// What a chore list (`householdChores`, `personalChores`, `myChores`) depends on besides time,
/// read together with its access check: the scopes the list reads (each household as the member
/// the viewer is there and their role, and the viewer's personal chores) and, for each,
/// the newest change-log sequence on its topic.
///
/// **The contract that makes it exact**: every write that can change what a chore list shows
/// (chores, steps, rules, assignees, tags, instances, claims, completions, approvals, scores,
/// memberships, the household's or a member's name and picture, a personal owner's time zone)
/// records a change on the topic of the household, or of the owner for personal chores, in the
/// same transaction (``ChangeLog/record(topic:kind:payload:in:)``). Sequences only grow
/// (AUTOINCREMENT), so two equal stamps mean no such write committed in between; new kinds of
/// writes (vacations, departures, sharing) are covered as long as they record their change.
/// Time is the other input: a list says when it next changes by itself
/// (``InstancePage/changesAt``), and a stamp carries the clock's time it was read at.
///
/// The sequences are read from the store (one indexed lookup per topic, `change_log_topic_sequence`),
/// not from memory, so the stamp stays right with several server processes on one database.
public struct ChoreViewStamp: Sendable, Hashable {
    /// One scope a list reads, as far as it changes what the list shows: its topic and how the
    /// viewer reads it (in a household, the member they are there and their role: what tells
    /// two ``HouseholdAccess``es apart; personal chores shared with them, that they are shared).
    struct Scope: Sendable, Hashable {
        let topic: String
        let grant: String

        init(_ access: ChoreAccess) {
            topic = access.topic.key
            switch access.grant {
            case .household(let household): grant = Self.grant(memberID: household.memberID, role: household.role.rawValue)
            case .personal: grant = ""
            case .shared(_, let viewerID): grant = "shared " + viewerID
            }
        }

        /// A household's scope as its membership row reads: member id and role.
        init(household householdID: String, memberID: String, role: String) {
            topic = Topic.household(householdID).key
            grant = Self.grant(memberID: memberID, role: role)
        }

        private static func grant(memberID: String, role: String) -> String { memberID + " " + role }
    }

    /// The scopes read, in order.
    let scopes: [Scope]
    /// The newest change-log sequence of each scope's topic (0: none kept).
    let sequences: [Int64]
    /// The service clock when the stamp was read (not part of equality).
    public let readAt: Date

    public static func == (lhs: ChoreViewStamp, rhs: ChoreViewStamp) -> Bool {
        lhs.scopes == rhs.scopes && lhs.sequences == rhs.sequences
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scopes)
        hasher.combine(sequences)
    }

    /// The stamp of `accesses` in the transaction of `database`, at `now`: one statement, one
    /// indexed lookup per topic.
    static func read(_ accesses: [ChoreAccess], at now: Date, in database: Database) throws -> ChoreViewStamp {
        ChoreViewStamp(scopes: accesses.map(Scope.init), sequences: try sequences(of: accesses.map(\.topic.key), in: database), readAt: now)
    }

    /// The stamp of `householdID`'s chores for `viewer` with the access check, in one statement:
    /// their active membership's id and role (all a kept list needs of it; ``HouseholdAccess``'s
    /// check reads the whole record) and the household topic's newest sequence.
    /// - Throws: `NOT_FOUND` as ``HouseholdAccess/check(viewer:householdID:requiring:in:)`` does.
    static func household(_ householdID: String, viewer: Viewer, at now: Date, in database: Database) throws -> ChoreViewStamp {
        guard GlobalID.mayName(.household, householdID) else { throw ServiceError.householdNotFound }
        // The viewer's own membership: their owner scope, never another account's row.
        guard let row = try OwnerScope(Owner(viewer), database).queryOne(Self.householdSQL, [Topic.household(householdID).key, householdID]) else {
            throw ServiceError.householdNotFound
        }
        let sequence: Int64? = try row[2]
        return ChoreViewStamp(scopes: [Scope(household: householdID, memberID: try row[0], role: try row[1])], sequences: [sequence ?? 0], readAt: now)
    }

    /// The stamp of the viewer's personal chores (when `personal`) and of every household they
    /// are an active member of, by household id: one statement for the memberships with their
    /// topics' newest sequences, one for the personal topic's.
    static func memberships(of viewer: Viewer, personal: Bool, at now: Date, in database: Database) throws -> ChoreViewStamp {
        var households: [(scope: Scope, householdID: String, sequence: Int64)] = []
        try OwnerScope(Owner(viewer), database).forEachRow(Self.membershipsSQL, [Topic.household("").key]) { row in
            let householdID: String = try row[0]
            let sequence: Int64? = try row[3]
            households.append((Scope(household: householdID, memberID: try row[1], role: try row[2]), householdID, sequence ?? 0))
        }
        households.sort { $0.householdID.utf8.lexicographicallyPrecedes($1.householdID.utf8) }
        let own = personal ? [ChoreAccess(personal: Owner(viewer))] : []
        return ChoreViewStamp(
            scopes: own.map(Scope.init) + households.map(\.scope),
            sequences: try sequences(of: own.map(\.topic.key), in: database) + households.map(\.sequence), readAt: now)
    }

    /// The newest sequence of each of `topics` (0 for one with none), one statement.
    private static func sequences(of topics: [String], in database: Database) throws -> [Int64] {
        guard !topics.isEmpty else { return [] }
        let sql = topics.count < sequenceSQL.count ? sequenceSQL[topics.count] : Self.sequenceSQL(topics: topics.count)
        let row = try database.queryOne(sql, StatementArguments(topics.map { $0 as (any DatabaseValueConvertible)? }))
        return try (0..<topics.count).map { column in
            guard let row else { return 0 }
            let sequence: Int64? = try row[column]
            return sequence ?? 0
        }
    }

    /// The statement reading the newest sequence of `topics` topics, one column each.
    private static func sequenceSQL(topics: Int) -> String {
        "SELECT " + Array(repeating: "(SELECT max(sequence) FROM change_log WHERE topic = ?)", count: topics).joined(separator: ", ")
    }

    /// ``sequenceSQL(topics:)`` made once for up to 7 topics (a viewer's personal chores and
    /// households), indexed by the count.
    private static let sequenceSQL: [String] = (0..<8).map { sequenceSQL(topics: $0) }

    /// The viewer's active membership of one household (id, role) and the household topic's
    /// newest sequence (arguments: the topic, the household).
    private static let householdSQL = """
        SELECT id, role, (SELECT max(sequence) FROM change_log WHERE topic = ?) FROM members
        WHERE household_id = ? AND user_id = {owner} AND status = 'active'
        """

    /// The viewer's active memberships (household, id, role) with each household topic's newest
    /// sequence (argument: the household topics' key prefix).
    private static let membershipsSQL = """
        SELECT m.household_id, m.id, m.role, (SELECT max(c.sequence) FROM change_log c WHERE c.topic = ? || m.household_id)
        FROM members m WHERE m.user_id = {owner} AND m.status = 'active'
        """
}

extension ChoreService {
    /// The stamp of the chores `householdChores(householdID)` (or `personalChores` when `nil`)
    /// lists for `viewer`, with the same access check.
    /// - Throws: `NOT_FOUND` for a household they are not an active member of.
    public func viewStamp(householdID: String?, viewer: Viewer) async throws -> ChoreViewStamp {
        let now = households.clock.now
        return try await pool.readPreferringCallingThread { database in
            guard let householdID else { return try ChoreViewStamp.read([ChoreAccess(personal: Owner(viewer))], at: now, in: database) }
            return try ChoreViewStamp.household(householdID, viewer: viewer, at: now, in: database)
        }
    }
}
