import FoundationEssentials
import HearthDomain

extension ChoreService {
    /// A schedule as a client gives it (the API's `ChoreScheduleInput @oneOf`), checked by the
    /// service: a recurrence is parsed in the household's time zone (or the owner's).
    public enum ScheduleRequest: Sendable, Hashable {
        /// Due once, at this instant.
        case once(Date)
        /// RFC 5545 text: `DTSTART`, `RRULE` and optional `EXDATE` lines.
        case recurrence(String)
        /// Due `every` days or weeks after each completion, first at `firstDueAt` (now when `nil`).
        case afterCompletion(every: Int, unit: IntervalUnit, firstDueAt: Date?)
    }

    /// One step as a client gives it (FR-38), in the order of the list.
    public struct StepRequest: Sendable, Hashable {
        /// An existing step of the chore to keep (its id stays, so history keeps pointing at it);
        /// `nil` for a new step.
        public var id: String?
        /// 1–80 characters.
        public var title: String
        /// The member who does this step, overriding the chore's assignees for it.
        public var assigneeID: String?
        /// Who may complete this step, overriding the chore's completion rule for it; `nil` or an
        /// empty rule: the chore's applies.
        public var completers: PermissionRule?

        /// Creates the request.
        public init(id: String? = nil, title: String, assigneeID: String? = nil, completers: PermissionRule? = nil) {
            self.id = id
            self.title = title
            self.assigneeID = assigneeID
            self.completers = completers
        }
    }

    /// What `createChore` is given (FR-32). Absent fields take the preset's value when `presetID`
    /// names one (FR-44), else their default.
    public struct NewChore: Sendable {
        /// An id made by the client (`chr_<UUID>`, for offline creation); the server makes one when `nil`.
        public var id: String?
        /// The household; `nil` for a personal chore (FR-31), visible to its owner only.
        public var householdID: String?
        /// A preset whose configuration the chore starts from (built in, or the household's).
        public var presetID: String?
        /// 1–80 characters; required without a preset.
        public var title: String?
        /// Up to 2000 characters.
        public var description: String?
        /// Default: the preset's, else `singleAction` (`individual` for personal chores, the only mode they have).
        public var assignmentMode: AssignmentMode?
        /// Active members of the household: one for `individual`, at least one for `group`, none for
        /// `allMembers`, at most one (the primary assignee) for `singleAction`.
        public var assigneeIDs: [String]?
        /// Required without a preset (whose schedule starts today).
        public var schedule: ScheduleRequest?
        /// Ordered steps; default: the preset's, else none.
        public var steps: [StepRequest]?
        /// Tags of the household (or the owner's personal tags); default: the preset's tags that
        /// exist, created when the caller manages tags.
        public var tagIDs: [String]?
        /// Tokens earned, 0 or more; default: the preset's, else 0.
        public var tokens: Int?
        /// Default: on when an assignee is a child or shadow (for `allMembers`: when the household has one).
        public var requiresApproval: Bool?
        /// Who besides the assignees may complete it (admins only may set it); default: nobody.
        public var completers: PermissionRule?
        /// Who besides admins may edit it (admins only may set it); default: its creator when not an admin.
        public var editors: PermissionRule?

        /// Creates the request.
        public init(
            id: String? = nil, householdID: String? = nil, presetID: String? = nil, title: String? = nil, description: String? = nil,
            assignmentMode: AssignmentMode? = nil, assigneeIDs: [String]? = nil, schedule: ScheduleRequest? = nil,
            steps: [StepRequest]? = nil, tagIDs: [String]? = nil, tokens: Int? = nil, requiresApproval: Bool? = nil,
            completers: PermissionRule? = nil, editors: PermissionRule? = nil
        ) {
            self.id = id
            self.householdID = householdID
            self.presetID = presetID
            self.title = title
            self.description = description
            self.assignmentMode = assignmentMode
            self.assigneeIDs = assigneeIDs
            self.schedule = schedule
            self.steps = steps
            self.tagIDs = tagIDs
            self.tokens = tokens
            self.requiresApproval = requiresApproval
            self.completers = completers
            self.editors = editors
        }
    }

    /// What `updateChore` changes (FR-33); `nil` fields stay as they are. Lists given replace the
    /// chore's (steps keep their ids where the request names them).
    public struct ChoreChanges: Sendable {
        /// A new title.
        public var title: String?
        /// A new description; `.some(nil)` clears it.
        public var description: String??
        /// A new mode; give `assigneeIDs` with it when the mode needs other assignees.
        public var assignmentMode: AssignmentMode?
        /// New assignees.
        public var assigneeIDs: [String]?
        /// A new schedule.
        public var schedule: ScheduleRequest?
        /// New steps.
        public var steps: [StepRequest]?
        /// New tags.
        public var tagIDs: [String]?
        /// New tokens.
        public var tokens: Int?
        /// Whether completions need approval.
        public var requiresApproval: Bool?
        /// A new completion rule (admins only).
        public var completers: PermissionRule?
        /// A new editors rule (admins only).
        public var editors: PermissionRule?

        /// Creates the request.
        public init(
            title: String? = nil, description: String?? = nil, assignmentMode: AssignmentMode? = nil, assigneeIDs: [String]? = nil,
            schedule: ScheduleRequest? = nil, steps: [StepRequest]? = nil, tagIDs: [String]? = nil, tokens: Int? = nil,
            requiresApproval: Bool? = nil, completers: PermissionRule? = nil, editors: PermissionRule? = nil
        ) {
            self.title = title
            self.description = description
            self.assignmentMode = assignmentMode
            self.assigneeIDs = assigneeIDs
            self.schedule = schedule
            self.steps = steps
            self.tagIDs = tagIDs
            self.tokens = tokens
            self.requiresApproval = requiresApproval
            self.completers = completers
            self.editors = editors
        }
    }
}
