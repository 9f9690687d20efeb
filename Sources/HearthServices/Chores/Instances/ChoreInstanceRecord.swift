import FoundationEssentials
import HearthDomain
import HearthStore

/// A chore instance (`chore_instances`, migration 0013): one occurrence of a chore for one member
/// (`GROUP`, `ALL_MEMBERS`) or shared (`INDIVIDUAL`, `SINGLE_ACTION`, personal chores). Stored up
/// to the planning horizon, computed beyond it (``isMaterialized`` false) with the same id.
public struct ChoreInstanceRecord: Sendable, Hashable {
    /// `chi_…`, derived from chore, occurrence and member (``ChoreInstanceID``).
    public var id: String
    /// The chore.
    public var choreID: String
    /// The household, for a household chore.
    public var householdID: String?
    /// The owner, for a personal chore.
    public var ownerID: String?
    /// The member of a per-member instance; `nil` when shared.
    public var memberID: String?
    /// The original due time (RECURRENCE-ID).
    public var occurrenceAt: Date
    /// When it is due.
    public var dueAt: Date
    /// Where it stands: ``ChoreInstanceStatus/paused`` for a pending one with `paused_at` set.
    public var status: ChoreInstanceStatus
    /// Who claimed a shared instance (`claimChore`, FR-52); `nil` while it is claimable.
    public var claimantID: String?
    /// When it was claimed.
    public var claimedAt: Date?
    /// When it was completed, while completed or waiting for approval.
    public var completedAt: Date?
    /// Since when it is paused: its holder is away with nobody to take it (vacation mode, FR-22).
    public var pausedAt: Date?
    /// Who holds it instead of the member it is for, who is away or gone (FR-21, FR-14, FR-15).
    public var reassignedTo: String?
    /// Whether it is stored; `false` for one computed beyond what is planned.
    public var isMaterialized: Bool

    /// Whether it is a personal chore's.
    public var isPersonal: Bool { householdID == nil }

    /// The columns ``init(row:)`` reads.
    static let columns = RecordColumns(
        "id", "chore_id", "household_id", "user_id", "member_id", "occurrence_at", "due_at", "status", "claimant_id", "claimed_at",
        "completed_at", "paused_at", "reassigned_to")

    /// Reads a stored instance from `row` (``columns``).
    init(row: Row) throws {
        id = try row["id"]
        choreID = try row["chore_id"]
        householdID = try row["household_id"]
        ownerID = try row["user_id"]
        memberID = try row["member_id"]
        occurrenceAt = try row["occurrence_at"]
        dueAt = try row["due_at"]
        claimantID = try row["claimant_id"]
        claimedAt = try row["claimed_at"]
        completedAt = try row["completed_at"]
        pausedAt = try row["paused_at"]
        reassignedTo = try row["reassigned_to"]
        // Paused is stored as pending with `paused_at` (migration 0020): open for planning and completion.
        let stored = ChoreInstanceStatus(rawValue: try row["status"]) ?? .pending
        status = stored == .pending && pausedAt != nil ? .paused : stored
        isMaterialized = true
    }

    /// The pending instance of `chore` at `occurrence` for `memberID`, as planning makes it.
    init(chore: ChoreRecord, occurrence: Date, memberID: String?) {
        id = ChoreInstanceID.make(choreID: chore.id, occurrence: occurrence, memberID: memberID).rawValue
        choreID = chore.id
        householdID = chore.householdID
        ownerID = chore.ownerID
        self.memberID = memberID
        occurrenceAt = occurrence
        dueAt = occurrence
        status = .pending
        isMaterialized = false
    }

    /// Stores this (computed) instance in `scope`, unless it is stored already.
    /// - Returns: Whether it was written now.
    @discardableResult
    func insert(at now: Date, _ scope: ChoreScope) throws -> Bool {
        try scope.execute(
            """
            INSERT INTO chore_instances (
                id, chore_id, household_id, user_id, member_id, occurrence_at, due_at, status, created_at, updated_at)
            VALUES (?, ?, {scope_ids}, ?, ?, ?, 'pending', ?, ?)
            ON CONFLICT (id) DO NOTHING
            """,
            [id, choreID, memberID, occurrenceAt, dueAt, now, now])
        return scope.changedRowCount == 1
    }

    /// The stored instance `id` of `scope`, or `nil`.
    static func find(id: String, _ scope: ChoreScope) throws -> ChoreInstanceRecord? {
        try scope.queryOne("SELECT \(columns) FROM chore_instances WHERE id = ? AND {scope}", [id]).map(ChoreInstanceRecord.init(row:))
    }

    /// The SQL condition (over `chore_instances` as `alias`) of an instance being in one of
    /// `statuses`: a paused one is stored as pending with `paused_at` (migration 0020), so
    /// `PENDING` means "pending and not paused". Its arguments are ``statusArguments(_:)``.
    static func statusCondition(_ statuses: [ChoreInstanceStatus], alias: String) -> String {
        var conditions: [String] = []
        let stored = statuses.filter { $0 != .pending && $0 != .paused }
        if !stored.isEmpty { conditions.append("\(alias).status IN (\(ChoreReferences.placeholders(stored.count)))") }
        if statuses.contains(.pending) { conditions.append("(\(alias).status = 'pending' AND \(alias).paused_at IS NULL)") }
        if statuses.contains(.paused) { conditions.append("(\(alias).status = 'pending' AND \(alias).paused_at IS NOT NULL)") }
        return conditions.isEmpty ? "0 = 1" : "(" + conditions.joined(separator: " OR ") + ")"
    }

    /// The arguments of ``statusCondition(_:alias:)``, in order.
    static func statusArguments(_ statuses: [ChoreInstanceStatus]) -> [(any DatabaseValueConvertible)?] {
        statuses.filter { $0 != .pending && $0 != .paused }.map(\.rawValue)
    }
}
