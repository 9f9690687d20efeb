import FoundationEssentials
import HearthDomain
import HearthStore

/// A chore definition as stored in `chores` (migration 0012), without its related rows
/// (assignees, steps, tags, rules), which lists read for many chores at once (``ChoreDetails``).
public struct ChoreRecord: Sendable, Hashable, FetchableRecord {
    /// What was read, in one object every copy shares: a list copies each record into its page,
    /// its loaders' keys and its values, and a copy of the fields themselves would retain each
    /// of their texts.
    private let shared: Shared
    /// The fields, read through the shared object.
    private var fields: Fields { shared.fields }

    /// The chore's id (`chr_…`).
    public var id: String { fields.id }
    /// The household, for a household chore.
    public var householdID: String? { fields.householdID }
    /// The owner, for a personal chore (FR-31).
    public var ownerID: String? { fields.ownerID }
    /// 1–80 characters.
    public var title: String { fields.title }
    /// Up to 2000 characters, several lines.
    public var description: String? { fields.description }
    /// Who it is for.
    public var assignmentMode: AssignmentMode { fields.assignmentMode }
    /// When it is due.
    public var schedule: ChoreSchedule { fields.schedule }
    /// What completing it earns (FR-ONBOARD-5).
    public var tokens: Int { fields.tokens }
    /// Whether a completion waits for an admin's approval.
    public var requiresApproval: Bool { fields.requiresApproval }
    /// The preset it was created from, if any.
    public var presetID: String? { fields.presetID }
    /// The account that created it, while that account exists.
    public var createdBy: String? { fields.createdBy }
    /// When it was created.
    public var createdAt: Date { fields.createdAt }
    /// When its definition last changed.
    public var updatedAt: Date { fields.updatedAt }
    /// When the one-off chore was archived (FR-37: done, or past its due day); `nil` while active.
    public var archivedAt: Date? { fields.archivedAt }
    /// When reminders fire before each due time (FR-49), ascending; empty for none.
    public var reminders: [ReminderOffset] { fields.reminders }

    /// Whether it is a personal chore.
    public var isPersonal: Bool { householdID == nil }
    /// Active, or archived (FR-37).
    public var status: ChoreStatus { archivedAt == nil ? .active : .archived }

    /// The columns, in the order ``init(row:)`` reads them.
    public static let columns = RecordColumns(
        "id", "household_id", "user_id", "title", "description", "assignment_mode", "schedule_kind", "due_at", "recurrence",
        "interval_count", "interval_unit", "tokens", "requires_approval", "preset_id", "created_by", "created_at", "updated_at",
        "archived_at", "reminder_offsets")

    /// Reads the chore from a row of ``columns``, by position (lists read many: no keyed decoding).
    public init(row: RecordRow) throws {
        shared = Shared(fields: try Fields(row: row))
    }

    /// Records are equal when every field is (the same read, or two reads of an unchanged chore).
    public static func == (left: ChoreRecord, right: ChoreRecord) -> Bool {
        left.shared === right.shared || left.fields == right.fields
    }

    /// The values of the schedule's columns `(schedule_kind, due_at, recurrence, interval_count, interval_unit)`.
    static func scheduleColumns(_ schedule: ChoreSchedule) -> [(any DatabaseValueConvertible)?] {
        switch schedule {
        case .once(let dueAt): [schedule.kind.rawValue, dueAt, nil, nil, nil]
        case .recurrence(let text): [schedule.kind.rawValue, nil, text, nil, nil]
        case .afterCompletion(let every, let unit, let firstDueAt): [schedule.kind.rawValue, firstDueAt, nil, every, unit.rawValue]
        }
    }

    /// The object every copy of a record shares.
    private final class Shared: Sendable {
        let fields: Fields

        init(fields: Fields) {
            self.fields = fields
        }
    }

    /// The fields of a record, never changed once read.
    private struct Fields: Sendable, Equatable {
        let id: String
        let householdID: String?
        let ownerID: String?
        let title: String
        let description: String?
        let assignmentMode: AssignmentMode
        let schedule: ChoreSchedule
        let tokens: Int
        let requiresApproval: Bool
        let presetID: String?
        let createdBy: String?
        let createdAt: Date
        let updatedAt: Date
        let archivedAt: Date?
        let reminders: [ReminderOffset]

        /// Reads the fields from a row of ``ChoreRecord/columns``, by position.
        init(row: RecordRow) throws {
            id = try row[0]
            householdID = try row[1]
            ownerID = try row[2]
            title = try row[3]
            description = try row[4]
            assignmentMode = try row[5]
            // The table's CHECK keeps the schedule's columns consistent with its kind.
            switch try row[6] as ChoreSchedule.Kind {
            case .once:
                schedule = .once(dueAt: try row[7])
            case .recurrence:
                schedule = .recurrence(try row[8])
            case .afterCompletion:
                schedule = .afterCompletion(every: try row[9], unit: try row[10], firstDueAt: try row[7])
            }
            tokens = try row[11]
            requiresApproval = try row[12]
            presetID = try row[13]
            createdBy = try row[14]
            createdAt = try row[15]
            updatedAt = try row[16]
            archivedAt = try row[17]
            reminders = ReminderOffset.offsets(stored: try row[18])
        }
    }

    /// Hashes the id alone (records equal by `==` have equal ids): lists key their loaders by
    /// record (``ChoreDetails/assignees(of:_:)`` reads by mode), and hashing every text of a
    /// chore for each lookup cost more than the rest of the lookup.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
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
