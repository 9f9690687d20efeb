import FoundationEssentials
import HearthStore

/// The setup wizard's steps (FR-ONBOARD-7), in order. Stored as the raw value.
public enum OnboardingStep: String, Sendable, CaseIterable, Codable {
    /// Name the household (required).
    case household
    /// The admin's own profile and the terms (required).
    case admin
    /// Add children and shadows, invite a co-parent.
    case members
    /// Set the token economy.
    case economy
    /// Create a first chore.
    case chore

    /// Whether the wizard is incomplete without this step.
    public var isRequired: Bool { self == .household || self == .admin }
    /// The step's position in the wizard, from 0.
    public var index: Int {
        switch self {
        case .household: 0
        case .admin: 1
        case .members: 2
        case .economy: 3
        case .chore: 4
        }
    }
}

/// Where a checklist step stands (`onboarding_steps.state`).
public enum OnboardingStepState: String, Sendable, CaseIterable, Codable {
    /// Not done yet (also: never visited).
    case pending
    /// Done; a done step stays done.
    case done
    /// Skipped for later; completing it later makes it done.
    case skipped
}

/// One step of a household's checklist and where it stands.
public struct OnboardingStepStatus: Sendable, Hashable {
    /// The step.
    public var step: OnboardingStep
    /// Pending, done or skipped.
    public var state: OnboardingStepState
    /// When it was done.
    public var completedAt: Date?
    /// When it was last skipped.
    public var skippedAt: Date?
    /// How many times the wizard showed it.
    public var visitCount: Int
    /// When the wizard last showed it.
    public var lastVisitedAt: Date?

    /// A step the household has not touched.
    init(pending step: OnboardingStep) {
        self.step = step
        state = .pending
        visitCount = 0
    }
}

/// A household's setup checklist (FR-ONBOARD-7): every step in wizard order, so a wizard on
/// any device resumes at ``nextStep``.
public struct OnboardingChecklist: Sendable, Hashable {
    /// The steps, in wizard order.
    public var steps: [OnboardingStepStatus]
    /// When the required steps were all done (recorded once).
    public var completedAt: Date?
    /// When the household's first chore was completed (approved, when it needed approval):
    /// onboarding.md's activation milestone.
    public var firstChoreCompletedAt: Date?

    /// Whether every required step is done: the wizard is complete.
    public var isComplete: Bool { steps.allSatisfy { !$0.step.isRequired || $0.state == .done } }

    /// Where the wizard resumes: the first required step not done, else the first optional
    /// step neither done nor skipped; `nil` when none is left.
    public var nextStep: OnboardingStep? {
        steps.first { $0.step.isRequired && $0.state != .done }?.step ?? steps.first { $0.state == .pending }?.step
    }

    /// Whether the home screen's checklist card is hidden (D-ONBOARD-3): once the household's first
    /// chore is completed, or every step is done or skipped, whichever comes first.
    public var isDismissed: Bool { firstChoreCompletedAt != nil || steps.allSatisfy { $0.state != .pending } }

    /// The status of `step`.
    public subscript(step: OnboardingStep) -> OnboardingStepStatus { steps[step.index] }
}

/// Reads and writes a household's checklist rows (`onboarding_steps`, `onboarding_completions`)
/// through the household's scope, inside the caller's transaction, without authorization or
/// analytics: callers in ``HouseholdService`` do those.
enum OnboardingProgress {
    /// The checklist of the household of `scope`, in one statement.
    static func checklist(_ scope: HouseholdScope) throws -> OnboardingChecklist {
        var steps = OnboardingStep.allCases.map(OnboardingStepStatus.init(pending:))
        var completedAt: Date?
        var firstChoreCompletedAt: Date?
        try scope.forEachRow(checklistSQL) { row in
            completedAt = try row[6]
            firstChoreCompletedAt = try row[7]
            guard let name: String = try row[0], let step = OnboardingStep(rawValue: name) else { return }
            steps[step.index].state = OnboardingStepState(rawValue: try row[1]) ?? .pending
            steps[step.index].completedAt = try row[2]
            steps[step.index].skippedAt = try row[3]
            steps[step.index].visitCount = try row[4]
            steps[step.index].lastVisitedAt = try row[5]
        }
        return OnboardingChecklist(steps: steps, completedAt: completedAt, firstChoreCompletedAt: firstChoreCompletedAt)
    }

    /// The household's row joined with its steps (one row with null steps when it has none), each
    /// row carrying the wizard's completion and the first chore's: read by position in ``checklist(_:)``.
    private static let checklistSQL = """
        SELECT s.step, s.state, s.completed_at, s.skipped_at, s.visit_count, s.last_visited_at,
            (SELECT completed_at FROM onboarding_completions WHERE household_id = {household}),
            (SELECT completed_at FROM household_first_completions WHERE household_id = {household})
        FROM households h LEFT JOIN onboarding_steps s ON s.household_id = h.id
        WHERE h.id = {household}
        """

    /// Marks `step` done; returns whether it was not done before (done again changes nothing).
    /// Only ``HouseholdService/markOnboardingStepDone(_:_:at:)`` calls it, which records the
    /// analytics and the wizard's completion that go with it.
    static func setDone(_ step: OnboardingStep, at now: Date, _ scope: HouseholdScope) throws -> Bool {
        if try state(of: step, scope) == .done { return false }
        try scope.execute(
            """
            INSERT INTO onboarding_steps (household_id, step, state, completed_at, updated_at) VALUES ({household}, ?, 'done', ?, ?)
            ON CONFLICT (household_id, step) DO UPDATE SET
                state = 'done', completed_at = excluded.completed_at, updated_at = excluded.updated_at
            """,
            [step.rawValue, now, now])
        return true
    }

    /// Marks `step` skipped unless it is done; returns whether it was marked.
    static func markSkipped(_ step: OnboardingStep, at now: Date, _ scope: HouseholdScope) throws -> Bool {
        try scope.execute(
            """
            INSERT INTO onboarding_steps (household_id, step, state, skipped_at, updated_at) VALUES ({household}, ?, 'skipped', ?, ?)
            ON CONFLICT (household_id, step) DO UPDATE SET
                state = 'skipped', skipped_at = excluded.skipped_at, updated_at = excluded.updated_at
            WHERE onboarding_steps.state <> 'done'
            """,
            [step.rawValue, now, now])
        return try state(of: step, scope) == .skipped
    }

    /// Counts one more showing of `step`.
    static func recordVisit(_ step: OnboardingStep, at now: Date, _ scope: HouseholdScope) throws {
        try scope.execute(
            """
            INSERT INTO onboarding_steps (household_id, step, state, visit_count, last_visited_at, updated_at)
            VALUES ({household}, ?, 'pending', 1, ?, ?)
            ON CONFLICT (household_id, step) DO UPDATE SET
                visit_count = onboarding_steps.visit_count + 1, last_visited_at = excluded.last_visited_at, updated_at = excluded.updated_at
            """,
            [step.rawValue, now, now])
    }

    /// Records the wizard's completion if every required step is done and it was not recorded
    /// before; returns whether it recorded it now.
    static func recordCompletionIfDue(at now: Date, _ scope: HouseholdScope) throws -> Bool {
        guard try checklist(scope).isComplete else { return false }
        try scope.execute(
            "INSERT INTO onboarding_completions (household_id, completed_at) VALUES ({household}, ?) ON CONFLICT DO NOTHING", [now])
        return scope.changedRowCount > 0
    }

    /// The stored state of `step`; `nil` when the household has no row for it.
    private static func state(of step: OnboardingStep, _ scope: HouseholdScope) throws -> OnboardingStepState? {
        try scope.scalar(String.self, "SELECT state FROM onboarding_steps WHERE household_id = {household} AND step = ?", [step.rawValue])
            .flatMap(OnboardingStepState.init(rawValue:))
    }
}
