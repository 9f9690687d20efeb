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

    /// What `createChore` is given (FR-32): where, from which preset, and the definition's fields.
    /// Fields left `nil` take the preset's value when `presetID` names one (FR-44), else their default
    /// (a title and a schedule are required without a preset; mode `singleAction`, `individual` for
    /// personal chores; no steps, tags or rules; 0 tokens).
    public struct NewChore: Sendable {
        /// An id made by the client (`chr_<UUID>`, for offline creation); the server makes one when `nil`.
        public var id: String?
        /// The household; `nil` for a personal chore (FR-31), visible to its owner only.
        public var householdID: String?
        /// A preset whose configuration the chore starts from (built in, or the household's).
        public var presetID: String?
        /// The definition's fields.
        public var fields: ChoreFields

        /// Creates the request.
        public init(id: String? = nil, householdID: String? = nil, presetID: String? = nil, _ fields: ChoreFields = ChoreFields()) {
            self.id = id
            self.householdID = householdID
            self.presetID = presetID
            self.fields = fields
        }
    }
}
