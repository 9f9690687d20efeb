import FoundationEssentials
import HearthStore

/// What a chore list (`householdChores`, `personalChores`, `myChores`) depends on besides time,
/// read together with its access check: the scopes the list reads (each household as the member
/// the viewer is there, role and kind included, and the viewer's personal chores) and, for each,
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
    /// The scopes read, in order.
    let accesses: [ChoreAccess]
    /// The newest change-log sequence of each scope's topic (0: none kept).
    let sequences: [Int64]
    /// The service clock when the stamp was read (not part of equality).
    public let readAt: Date

    public static func == (lhs: ChoreViewStamp, rhs: ChoreViewStamp) -> Bool {
        lhs.accesses == rhs.accesses && lhs.sequences == rhs.sequences
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(accesses)
        hasher.combine(sequences)
    }

    /// The stamp of `accesses` in the transaction of `database`, at `now`: one statement, one
    /// indexed lookup per topic.
    static func read(_ accesses: [ChoreAccess], at now: Date, in database: Database) throws -> ChoreViewStamp {
        guard !accesses.isEmpty else { return ChoreViewStamp(accesses: [], sequences: [], readAt: now) }
        let sql = accesses.count < sequenceSQL.count ? sequenceSQL[accesses.count] : Self.sequenceSQL(topics: accesses.count)
        let row = try database.queryOne(sql, StatementArguments(accesses.map { $0.topic.key as (any DatabaseValueConvertible)? }))
        let sequences: [Int64] = try (0..<accesses.count).map { column in
            guard let row else { return 0 }
            let sequence: Int64? = try row[column]
            return sequence ?? 0
        }
        return ChoreViewStamp(accesses: accesses, sequences: sequences, readAt: now)
    }

    /// The statement reading the newest sequence of `topics` topics, one column each.
    private static func sequenceSQL(topics: Int) -> String {
        "SELECT " + Array(repeating: "(SELECT max(sequence) FROM change_log WHERE topic = ?)", count: topics).joined(separator: ", ")
    }

    /// ``sequenceSQL(topics:)`` made once for up to 7 topics (a viewer's personal chores and
    /// households), indexed by the count.
    private static let sequenceSQL: [String] = (0..<8).map { sequenceSQL(topics: $0) }
}

extension ChoreService {
    /// The stamp of the chores `householdChores(householdID)` (or `personalChores` when `nil`)
    /// lists for `viewer`, with the same access check.
    /// - Throws: `NOT_FOUND` for a household they are not an active member of.
    public func viewStamp(householdID: String?, viewer: Viewer) async throws -> ChoreViewStamp {
        let now = households.clock.now
        return try await pool.readPreferringCallingThread { database in
            try ChoreViewStamp.read([try ChoreAccess.check(viewer: viewer, householdID: householdID, in: database)], at: now, in: database)
        }
    }
}
