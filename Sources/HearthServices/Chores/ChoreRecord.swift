import FoundationEssentials
import HearthDomain
import HearthStore

/// A chore definition as stored in `chores` (migration 0012), without its related rows
/// (assignees, steps, tags, rules), which lists read for many chores at once (``ChoreDetails``).
public struct ChoreRecord: Sendable, Hashable, Decodable {
    /// The chore's id (`chr_…`).
    public var id: String
    /// The household, for a household chore.
    public var householdID: String?
    /// The owner, for a personal chore (FR-31).
    public var ownerID: String?
    /// 1–80 characters.
    public var title: String
    /// Up to 2000 characters, several lines.
    public var description: String?
    /// Who it is for.
    public var assignmentMode: AssignmentMode
    /// When it is due.
    public var schedule: ChoreSchedule
    /// What completing it earns (FR-ONBOARD-5).
    public var tokens: Int
    /// Whether a completion waits for an admin's approval.
    public var requiresApproval: Bool
    /// The preset it was created from, if any.
    public var presetID: String?
    /// The account that created it, while that account exists.
    public var createdBy: String?
    /// When it was created.
    public var createdAt: Date
    /// When its definition last changed.
    public var updatedAt: Date
    /// When the one-off chore was archived (FR-37: done, or past its due day); `nil` while active.
    public var archivedAt: Date?

    /// Whether it is a personal chore.
    public var isPersonal: Bool { householdID == nil }
    /// Active, or archived (FR-37).
    public var status: ChoreStatus { archivedAt == nil ? .active : .archived }

    /// The columns the decoder reads.
    static let columns = RecordColumns(
        "id", "household_id", "user_id", "title", "description", "assignment_mode", "schedule_kind", "due_at", "recurrence",
        "interval_count", "interval_unit", "tokens", "requires_approval", "preset_id", "created_by", "created_at", "updated_at",
        "archived_at")

    enum CodingKeys: String, CodingKey {
        case id, title, description, tokens
        case householdID = "household_id"
        case ownerID = "user_id"
        case assignmentMode = "assignment_mode"
        case scheduleKind = "schedule_kind"
        case dueAt = "due_at"
        case recurrence
        case intervalCount = "interval_count"
        case intervalUnit = "interval_unit"
        case requiresApproval = "requires_approval"
        case presetID = "preset_id"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case archivedAt = "archived_at"
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        id = try row.decode(String.self, forKey: .id)
        householdID = try row.decodeIfPresent(String.self, forKey: .householdID)
        ownerID = try row.decodeIfPresent(String.self, forKey: .ownerID)
        title = try row.decode(String.self, forKey: .title)
        description = try row.decodeIfPresent(String.self, forKey: .description)
        assignmentMode = try row.decode(AssignmentMode.self, forKey: .assignmentMode)
        // The table's CHECK keeps the schedule's columns consistent with its kind.
        switch try row.decode(ChoreSchedule.Kind.self, forKey: .scheduleKind) {
        case .once:
            schedule = .once(dueAt: try row.decode(Date.self, forKey: .dueAt))
        case .recurrence:
            schedule = .recurrence(try row.decode(String.self, forKey: .recurrence))
        case .afterCompletion:
            schedule = .afterCompletion(
                every: try row.decode(Int.self, forKey: .intervalCount), unit: try row.decode(IntervalUnit.self, forKey: .intervalUnit),
                firstDueAt: try row.decode(Date.self, forKey: .dueAt))
        }
        tokens = try row.decode(Int.self, forKey: .tokens)
        requiresApproval = try row.decode(Bool.self, forKey: .requiresApproval)
        presetID = try row.decodeIfPresent(String.self, forKey: .presetID)
        createdBy = try row.decodeIfPresent(String.self, forKey: .createdBy)
        createdAt = try row.decode(Date.self, forKey: .createdAt)
        updatedAt = try row.decode(Date.self, forKey: .updatedAt)
        archivedAt = try row.decodeIfPresent(Date.self, forKey: .archivedAt)
    }

    /// The values of the schedule's columns `(schedule_kind, due_at, recurrence, interval_count, interval_unit)`.
    static func scheduleColumns(_ schedule: ChoreSchedule) -> [(any DatabaseValueConvertible)?] {
        switch schedule {
        case .once(let dueAt): [schedule.kind.rawValue, dueAt, nil, nil, nil]
        case .recurrence(let text): [schedule.kind.rawValue, nil, text, nil, nil]
        case .afterCompletion(let every, let unit, let firstDueAt): [schedule.kind.rawValue, firstDueAt, nil, every, unit.rawValue]
        }
    }

    /// The chore `id` of `scope`, unless deleted.
    /// - Throws: `NOT_FOUND` otherwise.
    static func find(id: String, _ scope: ChoreScope) throws -> ChoreRecord {
        guard let chore = try scope.decodeOne(
            ChoreRecord.self, "SELECT \(columns) FROM chores WHERE id = ? AND {scope} AND deleted_at IS NULL", [id])
        else { throw ServiceError.choreNotFound }
        return chore
    }
}
