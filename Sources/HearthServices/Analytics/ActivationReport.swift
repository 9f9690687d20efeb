import FoundationEssentials
import HearthStore

/// The activation KPI of onboarding.md, computed from `analytics_events` alone (so it sees
/// only what consenting accounts allowed, and identifies no one).
///
/// Definitions, in terms of the stored events:
///
/// - **Cohort.** A household (its `household_ref`) whose `household_created` event falls in
///   the window (`since` inclusive, `until` exclusive; either may be open), and whose wizard
///   was seen opening: an `onboarding_started` event of the creating account (the
///   `household_created` event's `actor_ref`) without a household, at or before the creation,
///   or an `onboarding_started` event carrying the household's reference, at any time.
/// - **Start.** The earlier of the creator's last household-less `onboarding_started` at or
///   before the creation (the wizard session that created it) and the household's first
///   `onboarding_started` with its reference. onboarding.md's "first app open".
/// - **Activated.** The household has an `onboarding_completed` event and a
///   `first_chore_completed` event, both at most 72 hours after its start (72 hours exactly
///   counts; event times are at minute precision).
/// - **Activation rate** = activated / cohort; `nil` ("no data") for an empty cohort. The
///   target is 65 %.
/// - **Step reach.** For each wizard step, the share of the cohort with an
///   `onboarding_step_completed` event for that step, at any time: where households drop off.
/// - **Economy skip rate** (the guardrail). The share of the cohort with an
///   `onboarding_skipped` event for the economy step; flagged above 20 % (exactly 20 % is not
///   flagged).
///
/// Households created less than 72 hours before the report may still activate: close the
/// window with `until` at least 72 hours in the past for final figures.
public struct ActivationReport: Sendable, Hashable {
    /// How many households a wizard step was completed in.
    public struct StepReach: Sendable, Hashable {
        /// The step.
        public var step: OnboardingStep
        /// Cohort households with the step completed.
        public var households: Int
        /// The share of the cohort; `nil` for an empty cohort.
        public var rate: Double?
    }

    /// The activation rate the product aims for (onboarding.md: at least 65 %).
    public static let targetRate = 0.65
    /// The economy skip rate above which the default exchange rate needs a look (20 %).
    public static let economySkipRateLimit = 0.20
    /// How long after the start a household has to activate.
    public static let activationWindow: Double = 72 * 3600

    /// The first creation time included, if bounded.
    public var since: Date?
    /// The first creation time excluded, if bounded.
    public var until: Date?
    /// Households in the cohort.
    public var cohort: Int
    /// Cohort households activated within 72 hours.
    public var activated: Int
    /// Cohort households whose wizard is complete (at any time).
    public var completedWizard: Int
    /// Cohort households with a first completed chore (at any time).
    public var completedFirstChore: Int
    /// Per wizard step, in order.
    public var steps: [StepReach]
    /// Cohort households that skipped the economy step.
    public var skippedEconomy: Int

    /// activated / cohort; `nil` when the cohort is empty.
    public var activationRate: Double? { share(activated) }
    /// Whether the activation rate reaches the target; `nil` when the cohort is empty.
    public var meetsTarget: Bool? { activationRate.map { $0 >= Self.targetRate } }
    /// skippedEconomy / cohort; `nil` when the cohort is empty.
    public var economySkipRate: Double? { share(skippedEconomy) }
    /// Whether the economy skip rate is above its limit (the guardrail fired).
    public var isEconomySkipRateFlagged: Bool { (economySkipRate ?? 0) > Self.economySkipRateLimit }

    private func share(_ count: Int) -> Double? {
        cohort == 0 ? nil : Double(count) / Double(cohort)
    }

    /// Computes the report over households created in `since..<until`, reading `database`.
    ///
    /// Portable SQL (docs/architecture.md): one query finds the cohort's times, a second the
    /// step events, whose JSON properties are read here rather than with a dialect's JSON
    /// functions.
    public static func compute(since: Date? = nil, until: Date? = nil, in database: Database) throws -> ActivationReport {
        var report = ActivationReport(
            since: since, until: until, cohort: 0, activated: 0, completedWizard: 0, completedFirstChore: 0,
            steps: OnboardingStep.allCases.map { StepReach(step: $0, households: 0, rate: nil) }, skippedEconomy: 0)
        var window = ""
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let since {
            window += " AND occurred_at >= ?"
            arguments.append(since)
        }
        if let until {
            window += " AND occurred_at < ?"
            arguments.append(until)
        }
        var cohort: Set<String> = []
        try database.forEachRow(
            """
            WITH created AS (
                SELECT household_ref, min(occurred_at) AS created_at FROM analytics_events
                WHERE name = 'household_created' AND household_ref IS NOT NULL\(window)
                GROUP BY household_ref
            ),
            creators AS (
                SELECT c.household_ref, c.created_at,
                    (SELECT e.actor_ref FROM analytics_events e
                     WHERE e.name = 'household_created' AND e.household_ref = c.household_ref AND e.occurred_at = c.created_at
                     ORDER BY e.id LIMIT 1) AS actor_ref
                FROM created c
            )
            SELECT c.household_ref,
                (SELECT max(s.occurred_at) FROM analytics_events s
                 WHERE s.name = 'onboarding_started' AND s.household_ref IS NULL
                   AND s.actor_ref = c.actor_ref AND s.occurred_at <= c.created_at) AS session_started_at,
                (SELECT min(s.occurred_at) FROM analytics_events s
                 WHERE s.name = 'onboarding_started' AND s.household_ref = c.household_ref) AS household_started_at,
                (SELECT min(e.occurred_at) FROM analytics_events e
                 WHERE e.household_ref = c.household_ref AND e.name = 'onboarding_completed') AS completed_at,
                (SELECT min(e.occurred_at) FROM analytics_events e
                 WHERE e.household_ref = c.household_ref AND e.name = 'first_chore_completed') AS first_chore_at
            FROM creators c
            """,
            StatementArguments(arguments)
        ) { row in
            let starts = [try row["session_started_at"] as Date?, try row["household_started_at"] as Date?].compactMap { $0 }
            guard let start = starts.min() else { return }
            let completedAt: Date? = try row["completed_at"]
            let firstChoreAt: Date? = try row["first_chore_at"]
            let deadline = start.addingTimeInterval(activationWindow)
            cohort.insert(try row["household_ref"])
            if completedAt != nil { report.completedWizard += 1 }
            if firstChoreAt != nil { report.completedFirstChore += 1 }
            if let completedAt, let firstChoreAt, completedAt <= deadline, firstChoreAt <= deadline { report.activated += 1 }
        }
        report.cohort = cohort.count
        var stepsCompleted: [String: Set<String>] = [:]
        var skippedEconomy: Set<String> = []
        try database.forEachRow(
            """
            SELECT household_ref, name, properties FROM analytics_events
            WHERE name IN ('onboarding_step_completed', 'onboarding_skipped') AND household_ref IS NOT NULL
            """
        ) { row in
            let household: String = try row["household_ref"]
            guard cohort.contains(household) else { return }
            let properties = try JSONDecoder().decode([String: String].self, from: Data((try row["properties"] as String).utf8))
            guard let step = properties["step"] else { return }
            if try row["name"] as String == AnalyticsEventName.onboardingSkipped.rawValue {
                if step == OnboardingStep.economy.rawValue { skippedEconomy.insert(household) }
            } else {
                stepsCompleted[household, default: []].insert(step)
            }
        }
        report.skippedEconomy = skippedEconomy.count
        for index in report.steps.indices {
            let step = report.steps[index].step.rawValue
            report.steps[index].households = stepsCompleted.values.count(where: { $0.contains(step) })
            report.steps[index].rate = report.share(report.steps[index].households)
        }
        return report
    }
}
