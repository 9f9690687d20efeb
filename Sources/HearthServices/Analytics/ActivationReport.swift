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
    public static func compute(since: Date? = nil, until: Date? = nil, in database: Database) throws -> ActivationReport {
        var report = ActivationReport(
            since: since, until: until, cohort: 0, activated: 0, completedWizard: 0, completedFirstChore: 0,
            steps: OnboardingStep.allCases.map { StepReach(step: $0, households: 0, rate: nil) }, skippedEconomy: 0)
        try database.forEachRow(
            """
            WITH created AS (
                SELECT household_ref, actor_ref, min(occurred_at) AS created_at FROM analytics_events
                WHERE name = 'household_created' AND household_ref IS NOT NULL
                  AND (?1 IS NULL OR occurred_at >= ?1) AND (?2 IS NULL OR occurred_at < ?2)
                GROUP BY household_ref
            ),
            cohort AS (
                SELECT c.household_ref, min(
                    coalesce((SELECT max(s.occurred_at) FROM analytics_events s
                              WHERE s.name = 'onboarding_started' AND s.household_ref IS NULL
                                AND s.actor_ref = c.actor_ref AND s.occurred_at <= c.created_at), '~'),
                    coalesce((SELECT min(s.occurred_at) FROM analytics_events s
                              WHERE s.name = 'onboarding_started' AND s.household_ref = c.household_ref), '~')
                ) AS started_at
                FROM created c
            )
            SELECT started_at,
                (SELECT min(occurred_at) FROM analytics_events e
                 WHERE e.household_ref = cohort.household_ref AND e.name = 'onboarding_completed') AS completed_at,
                (SELECT min(occurred_at) FROM analytics_events e
                 WHERE e.household_ref = cohort.household_ref AND e.name = 'first_chore_completed') AS first_chore_at,
                (SELECT group_concat(DISTINCT json_extract(e.properties, '$.step')) FROM analytics_events e
                 WHERE e.household_ref = cohort.household_ref AND e.name = 'onboarding_step_completed') AS steps_completed,
                EXISTS (SELECT 1 FROM analytics_events e
                        WHERE e.household_ref = cohort.household_ref AND e.name = 'onboarding_skipped'
                          AND json_extract(e.properties, '$.step') = 'economy') AS skipped_economy
            FROM cohort WHERE started_at <> '~'
            """,
            [since, until]
        ) { row in
            let start: Date = try row["started_at"]
            let completedAt: Date? = try row["completed_at"]
            let firstChoreAt: Date? = try row["first_chore_at"]
            let deadline = start.addingTimeInterval(activationWindow)
            report.cohort += 1
            if completedAt != nil { report.completedWizard += 1 }
            if firstChoreAt != nil { report.completedFirstChore += 1 }
            if let completedAt, let firstChoreAt, completedAt <= deadline, firstChoreAt <= deadline { report.activated += 1 }
            let steps = Set((try row["steps_completed"] as String?)?.split(separator: ",").map(String.init) ?? [])
            for index in report.steps.indices where steps.contains(report.steps[index].step.rawValue) {
                report.steps[index].households += 1
            }
            if try row["skipped_economy"] as Bool { report.skippedEconomy += 1 }
        }
        for index in report.steps.indices { report.steps[index].rate = report.share(report.steps[index].households) }
        return report
    }
}
