import FoundationEssentials
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The activation report over hand-written `analytics_events` rows.
struct ActivationReportTests {
    /// A fixed origin; rows are placed in hours after it.
    static let origin = Date(timeIntervalSince1970: 1_790_000_040)

    /// Writes analytics rows and computes reports over them.
    struct Events {
        let pool: any DatabaseWriter

        func add(_ name: String, household: String? = nil, actor: String? = nil, step: String? = nil, hours: Double) async throws {
            try await pool.write { database in
                try database.execute(
                    "INSERT INTO analytics_events (name, household_ref, actor_ref, properties, occurred_at) VALUES (?, ?, ?, ?, ?)",
                    [name, household, actor, step.map { #"{"step":"\#($0)"}"# } ?? "{}", ActivationReportTests.origin.addingTimeInterval(hours * 3600)])
            }
        }

        /// A household whose creator opened the wizard `openedBefore` hours before creating it at `created`.
        func household(_ ref: String, by actor: String, created: Double = 0, openedBefore: Double = 0.1) async throws {
            try await add("onboarding_started", actor: actor, hours: created - openedBefore)
            try await add("household_created", household: ref, actor: actor, hours: created)
            try await add("onboarding_step_completed", household: ref, actor: actor, step: "household", hours: created)
        }

        func report(since: Double? = nil, until: Double? = nil) async throws -> ActivationReport {
            try await pool.read { database in
                try ActivationReport.compute(
                    since: since.map { ActivationReportTests.origin.addingTimeInterval($0 * 3600) },
                    until: until.map { ActivationReportTests.origin.addingTimeInterval($0 * 3600) }, in: database)
            }
        }
    }

    static func with(_ body: (Events) async throws -> Void) async throws {
        try await AccountsHarness.with { harness in try await body(Events(pool: harness.pool)) }
    }

    @Test func noHouseholdsIsNoDataRatherThanADivisionByZero() async throws {
        try await Self.with { events in
            let report = try await events.report()
            #expect(report.cohort == 0)
            #expect(report.activationRate == nil)
            #expect(report.meetsTarget == nil)
            #expect(report.economySkipRate == nil)
            #expect(!report.isEconomySkipRateFlagged)
            #expect(report.steps.map(\.rate) == [nil, nil, nil, nil, nil])
        }
    }

    @Test func withoutChoresNoHouseholdIsActivated() async throws {
        try await Self.with { events in
            for ref in ["h1", "h2"] {
                try await events.household(ref, by: "a-\(ref)")
                try await events.add("onboarding_completed", household: ref, actor: "a-\(ref)", hours: 1)
            }
            let report = try await events.report()
            #expect(report.cohort == 2)
            #expect(report.completedWizard == 2)
            #expect(report.completedFirstChore == 0)
            #expect(report.activated == 0)
            #expect(report.activationRate == 0)
            #expect(report.meetsTarget == false)
        }
    }

    @Test func bothMilestonesMustFallWithinSeventyTwoHoursOfTheWizardsOpening() async throws {
        try await Self.with { events in
            // Opened at hour -0.1 for each; 72 h later is hour 71.9.
            try await events.household("exactly", by: "a1")
            try await events.add("onboarding_completed", household: "exactly", hours: 1)
            try await events.add("first_chore_completed", household: "exactly", hours: 71.9)
            try await events.household("minute-late", by: "a2")
            try await events.add("onboarding_completed", household: "minute-late", hours: 1)
            try await events.add("first_chore_completed", household: "minute-late", hours: 71.9 + 1.0 / 60)
            try await events.household("late-wizard", by: "a3")
            try await events.add("onboarding_completed", household: "late-wizard", hours: 80)
            try await events.add("first_chore_completed", household: "late-wizard", hours: 2)
            let report = try await events.report()
            #expect(report.cohort == 3)
            #expect(report.activated == 1)
            #expect(report.completedWizard == 3)
            #expect(report.completedFirstChore == 3)
        }
    }

    @Test func theWindowStartsAtTheWizardSessionThatCreatedTheHousehold() async throws {
        try await Self.with { events in
            // An opening ten days earlier does not start this household's window: the last one before creation does.
            try await events.add("onboarding_started", actor: "a1", hours: -240)
            try await events.household("h1", by: "a1", openedBefore: 1)
            try await events.add("onboarding_completed", household: "h1", hours: 70)
            try await events.add("first_chore_completed", household: "h1", hours: 70.9)
            #expect(try await events.report().activated == 1)
        }
    }

    @Test func theCohortIsHouseholdsCreatedInTheWindowWhoseWizardWasSeenOpening() async throws {
        try await Self.with { events in
            try await events.household("opened-before", by: "a1")
            // Created without any opening recorded (its creator did not consent then): not in the cohort.
            try await events.add("household_created", household: "never-opened", actor: "a2", hours: 0)
            // Another account's opening does not count.
            try await events.add("onboarding_started", actor: "a3", hours: -1)
            try await events.add("household_created", household: "others-opening", actor: "a4", hours: 0)
            // Opened later for the household itself (resumed on a device that reports the household).
            try await events.add("household_created", household: "opened-for-it", actor: "a5", hours: 0)
            try await events.add("onboarding_started", household: "opened-for-it", actor: "a5", hours: 5)
            // Opened after creating, without naming it: not this household's opening.
            try await events.add("household_created", household: "opened-after", actor: "a6", hours: 0)
            try await events.add("onboarding_started", actor: "a6", hours: 1)
            try await events.household("next-week", by: "a7", created: 170)
            #expect(try await events.report().cohort == 3)
            #expect(try await events.report(until: 168).cohort == 2)
            #expect(try await events.report(since: 168).cohort == 1)
            #expect(try await events.report(since: 0, until: 0).cohort == 0)
        }
    }

    @Test func stepReachCountsHouseholdsPerStep() async throws {
        try await Self.with { events in
            for ref in ["h1", "h2", "h3", "h4"] { try await events.household(ref, by: "a-\(ref)") }
            for ref in ["h1", "h2", "h3"] { try await events.add("onboarding_step_completed", household: ref, step: "admin", hours: 1) }
            try await events.add("onboarding_step_completed", household: "h1", step: "admin", hours: 2)
            try await events.add("onboarding_step_completed", household: "h1", step: "economy", hours: 2)
            let report = try await events.report()
            #expect(report.steps.map(\.step) == OnboardingStep.allCases)
            #expect(report.steps.map(\.households) == [4, 3, 0, 1, 0])
            #expect(report.steps.map(\.rate) == [1, 0.75, 0, 0.25, 0])
        }
    }

    @Test func theEconomySkipGuardrailFiresAboveTwentyPercentNotAtIt() async throws {
        try await Self.with { events in
            for index in 1...5 { try await events.household("h\(index)", by: "a\(index)") }
            try await events.add("onboarding_skipped", household: "h1", step: "economy", hours: 1)
            try await events.add("onboarding_skipped", household: "h1", step: "economy", hours: 2)
            try await events.add("onboarding_skipped", household: "h2", step: "members", hours: 1)
            let atLimit = try await events.report()
            #expect(atLimit.skippedEconomy == 1)
            #expect(atLimit.economySkipRate == 0.2)
            #expect(!atLimit.isEconomySkipRateFlagged)
            try await events.add("onboarding_skipped", household: "h2", step: "economy", hours: 3)
            let above = try await events.report()
            #expect(above.economySkipRate == 0.4)
            #expect(above.isEconomySkipRateFlagged)
        }
    }
}
