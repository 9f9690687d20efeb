import FoundationEssentials
import HearthDomain

/// The parts of a chore definition a create or an edit sets (FR-32, FR-33); `nil` fields are not
/// set: a create takes them from its preset or the defaults, an edit keeps them. Lists given replace
/// the chore's. Their format is checked without reading anything (``checked(maximumSteps:)``);
/// references (members, tags, step ids) and recurrence rules are checked in the transaction,
/// against the chore's household (``ChoreService/draft(_:over:isNew:_:at:)``).
public struct ChoreFields: Sendable {
    /// 1–80 characters.
    public var title: String?
    /// Up to 2000 characters, several lines; `.some(nil)` clears it.
    public var description: String??
    /// Who the chore is for (personal chores: `individual` only).
    public var assignmentMode: AssignmentMode?
    /// Active members of the household: one for `individual`, at least one for `group`, none for
    /// `allMembers`, at most one (the primary assignee) for `singleAction`.
    public var assigneeIDs: [String]?
    /// When it is due.
    public var schedule: ChoreService.ScheduleRequest?
    /// Ordered steps; steps naming an id of the chore's keep it.
    public var steps: [ChoreService.StepRequest]?
    /// Tags of the household (or the owner's personal tags).
    public var tagIDs: [String]?
    /// Tokens earned, 0 or more.
    public var tokens: Int?
    /// Whether completions need approval; a new chore's default is on when an assignee is a child
    /// or shadow (for `allMembers`: when the household has one).
    public var requiresApproval: Bool?
    /// Who besides the assignees may complete it (admins only may set it).
    public var completers: PermissionRule?
    /// Who besides admins may edit it (admins only may set it); a new chore's default is its
    /// creator when not an admin.
    public var editors: PermissionRule?
    /// When reminders fire before each due time (FR-49); an empty list: none. A new chore's default
    /// is the reminder at due time (``ReminderOffset/newChoreDefault``).
    public var reminders: [ReminderOffset]?

    /// Creates the fields.
    public init(
        title: String? = nil, description: String?? = nil, assignmentMode: AssignmentMode? = nil, assigneeIDs: [String]? = nil,
        schedule: ChoreService.ScheduleRequest? = nil, steps: [ChoreService.StepRequest]? = nil, tagIDs: [String]? = nil, tokens: Int? = nil,
        requiresApproval: Bool? = nil, completers: PermissionRule? = nil, editors: PermissionRule? = nil, reminders: [ReminderOffset]? = nil
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
        self.reminders = reminders
    }

    /// The fields with titles and the description trimmed and lists of ids without repeats.
    /// - Throws: `BAD_USER_INPUT` listing every problem of format.
    func checked(maximumSteps: Int, reminderLimits: ReminderLimits = ReminderLimits()) throws -> ChoreFields {
        var fields = self
        fields.assigneeIDs = assigneeIDs.map(Self.unique)
        fields.tagIDs = tagIDs.map(Self.unique)
        fields.reminders = reminders.map { Array(Set($0)).sorted() }
        try fields.check(maximumSteps: maximumSteps, reminderLimits: reminderLimits)
        return fields
    }

    /// Checks the format of every field set, trimming titles and the description.
    private mutating func check(maximumSteps: Int, reminderLimits: ReminderLimits) throws {
        var problems = ProblemCollector()
        if let reminders { reminderLimits.check(reminders, problems: &problems) }
        if let title {
            self.title = problems.check { () throws(FieldProblem) in try DisplayText.name(title, field: "input.title") }
        }
        if case .some(.some(let text)) = description {
            description = .some(problems.check { () throws(FieldProblem) in
                try DisplayText.optionalParagraphs(text, field: "input.description", maximumLength: ChoreRules.maximumDescriptionLength)
            } ?? nil)
        }
        if let tokens, !(0...ChoreRules.maximumTokens).contains(tokens) {
            problems.add(FieldProblem(field: "input.tokens", reason: .outOfRange, message: "Give 0 to \(ChoreRules.maximumTokens) tokens."))
        }
        if case .afterCompletion(let every, let unit, _)? = schedule {
            _ = problems.check { () throws(FieldProblem) in try unit.check(every, field: "input.schedule.afterCompletion.every") }
        }
        if let steps {
            if steps.count > maximumSteps {
                problems.add(FieldProblem(field: "input.steps", reason: .tooLong, message: "A chore has at most \(maximumSteps) steps."))
            }
            for (index, step) in steps.enumerated() {
                let title = problems.check { () throws(FieldProblem) in try DisplayText.name(step.title, field: "input.steps[\(index)].title") }
                self.steps?[index].title = title ?? step.title
            }
        }
        try problems.throwIfAny()
    }

    /// `ids` without repeats, in their first order.
    private static func unique(_ ids: [String]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert($0).inserted }
    }
}
