import FoundationEssentials
import HearthDomain

/// The parts of a chore one create or edit sets, their format checked without reading anything
/// (titles, description, tokens, the number of steps, an interval's range); `nil` fields are not
/// set. References (members, tags, step ids) and recurrence rules are checked later, in the
/// transaction, against the chore's household (``ChoreService/draft(_:over:isNew:_:at:)``).
struct ChoreFields: Sendable {
    var title: String?
    /// `.some(nil)` clears the description.
    var description: String??
    var assignmentMode: AssignmentMode?
    var assigneeIDs: [String]?
    var schedule: ChoreService.ScheduleRequest?
    var steps: [ChoreService.StepRequest]?
    var tagIDs: [String]?
    var tokens: Int?
    var requiresApproval: Bool?
    var completers: PermissionRule?
    var editors: PermissionRule?

    /// Nothing set.
    init() {}

    /// The fields of `changes`, checked.
    /// - Throws: `BAD_USER_INPUT` listing every problem.
    init(checking changes: ChoreService.ChoreChanges, maximumSteps: Int) throws {
        title = changes.title
        description = changes.description
        assignmentMode = changes.assignmentMode
        assigneeIDs = changes.assigneeIDs.map(Self.unique)
        schedule = changes.schedule
        steps = changes.steps
        tagIDs = changes.tagIDs.map(Self.unique)
        tokens = changes.tokens
        requiresApproval = changes.requiresApproval
        completers = changes.completers
        editors = changes.editors
        try check(maximumSteps: maximumSteps)
    }

    /// The fields of `request`, checked.
    /// - Throws: `BAD_USER_INPUT` listing every problem.
    init(checking request: ChoreService.NewChore, maximumSteps: Int) throws {
        try self.init(
            checking: ChoreService.ChoreChanges(
                title: request.title, description: request.description.map { .some($0) }, assignmentMode: request.assignmentMode,
                assigneeIDs: request.assigneeIDs, schedule: request.schedule, steps: request.steps, tagIDs: request.tagIDs,
                tokens: request.tokens, requiresApproval: request.requiresApproval, completers: request.completers,
                editors: request.editors),
            maximumSteps: maximumSteps)
    }

    /// Checks the format of every field set, trimming titles and the description.
    private mutating func check(maximumSteps: Int) throws {
        var problems = ProblemCollector()
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
