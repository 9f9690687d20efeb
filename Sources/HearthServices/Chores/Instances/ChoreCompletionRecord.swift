import FoundationEssentials
import HearthDomain
import HearthStore

/// A completion (`chore_completions`, migration 0013): of a whole instance, or of one step of a
/// multi-step chore (FR-38: each step's completion is its own record). History (FR-39) lists the
/// live ones (``ChoreCompletionStatus/isLive``), newest first.
public struct ChoreCompletionRecord: Sendable, Hashable {
    /// `cmp_…`.
    public var id: String
    /// The instance completed (or whose step was).
    public var instanceID: String
    /// The chore.
    public var choreID: String
    /// The household, for a household chore.
    public var householdID: String?
    /// The owner, for a personal chore.
    public var ownerID: String?
    /// The step, for a step's completion, with its title and place as they were then.
    public var step: Step?
    /// Whether it finished the instance (the last step, or a chore without steps).
    public var isFinal: Bool
    /// Whose completion it is (a household chore): who did it; a child a parent recorded it for.
    public var memberID: String?
    /// The account that recorded it.
    public var recordedBy: String?
    /// The recorder's member record, in a household.
    public var recordedByMemberID: String?
    /// When.
    public var completedAt: Date
    /// Where it stands.
    public var status: ChoreCompletionStatus
    /// How FR-18's prompt was answered, when the household was not the recorder's active one.
    public var crossHousehold: CrossHouseholdChoice?
    /// The admin who approved or rejected it, when, and a rejection's reason.
    public var reviewedByMemberID: String?
    public var reviewedAt: Date?
    public var reviewNote: String?
    /// When it was undone.
    public var undoneAt: Date?

    /// A step as a completion records it.
    public struct Step: Sendable, Hashable {
        /// `stp_…` (the step may have been removed from the chore since).
        public var id: String
        /// Its title then.
        public var title: String
        /// Its place then, from 0.
        public var position: Int
    }

    /// Whether someone recorded it for the member (`onBehalfOf`).
    public var isRecordedForAnother: Bool { recordedByMemberID != nil && recordedByMemberID != memberID }

    /// The columns ``init(row:)`` reads.
    static let columns = RecordColumns(
        "id", "instance_id", "chore_id", "household_id", "user_id", "step_id", "step_title", "step_position", "is_final", "member_id",
        "recorded_by", "recorded_by_member", "completed_at", "status", "cross_household", "reviewed_by", "reviewed_at", "review_note",
        "undone_at")

    init(row: Row) throws {
        id = try row["id"]
        instanceID = try row["instance_id"]
        choreID = try row["chore_id"]
        householdID = try row["household_id"]
        ownerID = try row["user_id"]
        if let stepID: String = try row["step_id"] {
            step = Step(id: stepID, title: try row["step_title"], position: try row["step_position"])
        }
        isFinal = try row["is_final"]
        memberID = try row["member_id"]
        recordedBy = try row["recorded_by"]
        recordedByMemberID = try row["recorded_by_member"]
        completedAt = try row["completed_at"]
        status = ChoreCompletionStatus(rawValue: try row["status"]) ?? .completed
        crossHousehold = (try row["cross_household"] as String?).flatMap(CrossHouseholdChoice.init(rawValue:))
        reviewedByMemberID = try row["reviewed_by"]
        reviewedAt = try row["reviewed_at"]
        reviewNote = try row["review_note"]
        undoneAt = try row["undone_at"]
    }

    /// The completion `id` of `scope`, or `nil`.
    static func find(id: String, _ scope: ChoreScope) throws -> ChoreCompletionRecord? {
        try scope.queryOne("SELECT \(columns) FROM chore_completions WHERE id = ? AND {scope}", [id]).map(ChoreCompletionRecord.init(row:))
    }

    /// The live completions of `instanceID` in `scope`, oldest first (steps in the order done:
    /// by place when done in the same millisecond).
    static func live(of instanceID: String, _ scope: ChoreScope) throws -> [ChoreCompletionRecord] {
        try scope.query(
            """
            SELECT \(columns) FROM chore_completions WHERE instance_id = ? AND {scope} AND status IN ('completed', 'pending_approval')
            ORDER BY completed_at, coalesce(step_position, -1), id
            """,
            [instanceID]
        ).map(ChoreCompletionRecord.init(row:))
    }
}

/// FR-18's choice when completing an instance of a household other than one's active one.
/// Stored as the raw value (`chore_completions.cross_household`).
public enum CrossHouseholdChoice: String, Sendable, CaseIterable, Codable {
    /// Make the instance's household the active one, then complete.
    case switchAndComplete = "switch_and_complete"
    /// Complete without switching.
    case completeAnyway = "complete_anyway"
}
