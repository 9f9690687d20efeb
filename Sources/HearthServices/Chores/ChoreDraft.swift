import FoundationEssentials
import HearthDomain

/// A chore definition with every value checked against the chore's household, ready to write
/// (``ChoreWriter``): what `createChore` builds from a request over a preset, and `updateChore`
/// from the changes over the stored chore.
struct ChoreDraft: Sendable, Hashable {
    var title: String
    var description: String?
    var assignmentMode: AssignmentMode
    /// Members of the household, in order; none for `allMembers` and personal chores.
    var assigneeIDs: [String]
    var schedule: ChoreSchedule
    var steps: [Step]
    var tagIDs: [String]
    var tokens: Int
    var requiresApproval: Bool
    var completers: PermissionRule
    var editors: PermissionRule
    var presetID: String?
    /// The reminders (FR-49), ascending.
    var reminders: [ReminderOffset] = []

    /// One step, in order.
    struct Step: Sendable, Hashable {
        var id: String
        var title: String
        var assigneeID: String?
        /// `nil`: the chore's completion rule applies.
        var completers: PermissionRule?
    }

    /// What a draft is made over: the stored chore (an edit) or a preset's and the defaults (a
    /// create). The schedule is either stored (kept as it is unless changed) or still to check.
    struct Base: Sendable {
        var title: String?
        var description: String?
        var assignmentMode: AssignmentMode
        var assigneeIDs: [String] = []
        var schedule: Schedule?
        var steps: [ChoreService.StepRequest] = []
        var tagIDs: [String] = []
        var tokens = 0
        /// `nil`: decided by the default rule (children among the assignees).
        var requiresApproval: Bool?
        var completers = PermissionRule.nobody
        var editors = PermissionRule.nobody
        var presetID: String?
        /// The reminders (FR-49); a new chore's default is the one at due time (``ReminderOffset/newChoreDefault``).
        var reminders: [ReminderOffset] = ReminderOffset.newChoreDefault
        /// The ids of the chore's steps, which a request may keep.
        var stepIDs: Set<String> = []
    }

    /// A schedule stored already, or requested and still to check.
    enum Schedule: Sendable {
        case stored(ChoreSchedule)
        case requested(ChoreService.ScheduleRequest)
    }

    /// The base an edit of this draft starts from.
    var base: Base {
        Base(
            title: title, description: description, assignmentMode: assignmentMode, assigneeIDs: assigneeIDs, schedule: .stored(schedule),
            steps: steps.map { ChoreService.StepRequest(id: $0.id, title: $0.title, assigneeID: $0.assigneeID, completers: $0.completers) },
            tagIDs: tagIDs, tokens: tokens, requiresApproval: requiresApproval, completers: completers, editors: editors, presetID: presetID,
            reminders: reminders, stepIDs: Set(steps.map(\.id)))
    }
}
