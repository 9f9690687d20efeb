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
    public var index: Int { Self.allCases.firstIndex(of: self)! }
}

/// Writes a household's checklist rows (`onboarding_steps`).
enum OnboardingProgress {
    /// Marks `step` done inside the caller's transaction (again is harmless: the first time stays).
    static func markDone(_ step: OnboardingStep, householdID: String, at now: Date, in database: Database) throws {
        try database.execute(
            """
            INSERT INTO onboarding_steps (household_id, step, state, completed_at, updated_at) VALUES (?, ?, 'done', ?, ?)
            ON CONFLICT (household_id, step) DO UPDATE SET
                state = 'done', completed_at = coalesce(completed_at, excluded.completed_at), updated_at = excluded.updated_at
            """,
            [householdID, step.rawValue, now, now])
    }
}
