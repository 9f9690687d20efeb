import FoundationEssentials
import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// One stored `analytics_events` row, as tests read it back.
struct AnalyticsRow: Sendable, Hashable {
    var name: String
    var householdRef: String?
    var actorRef: String?
    var properties: String
    var occurredAt: String

    /// Every row, oldest first.
    static func all(in pool: any DatabaseWriter) async throws -> [AnalyticsRow] {
        try await pool.read { database in
            try database.query("SELECT name, household_ref, actor_ref, properties, occurred_at FROM analytics_events ORDER BY id").map {
                AnalyticsRow(
                    name: try $0["name"], householdRef: try $0["household_ref"], actorRef: try $0["actor_ref"],
                    properties: try $0["properties"], occurredAt: try $0["occurred_at"])
            }
        }
    }
}

extension HouseholdsHarness {
    /// A confirmed viewer who accepted the current terms and, if asked, allowed analytics.
    func adult(_ username: String, analytics: Bool = false) async throws -> Viewer {
        let viewer = try await confirmedViewer(username)
        if analytics { _ = try await service.setAnalyticsConsent(true, viewer: viewer) }
        return viewer
    }

    /// Creates a household named `name` as `viewer`; returns its id.
    func household(_ name: String = "Flat", as viewer: Viewer) async throws -> String {
        try await service.createHousehold(HouseholdService.NewHousehold(name: name), viewer: viewer).household.id
    }
}

struct TermsTests {
    @Test func signedOutCallersSeeTheTermsWithoutBeingAskedToAccept() async throws {
        try await HouseholdsHarness.with(configure: { $0.termsURL = "https://hearth.test/terms" }) { h in
            let terms = try await h.service.terms(viewer: nil)
            #expect(terms.currentVersion == h.service.configuration.termsVersion)
            #expect(terms.url == "https://hearth.test/terms")
            #expect(terms.acceptedVersion == nil)
            #expect(!terms.isAcceptanceRequired)
        }
    }

    @Test func acceptingTheCurrentVersionIsRecordedAsEvidenceAndOnTheAccount() async throws {
        try await HouseholdsHarness.with { h in
            let viewer = try await h.confirmedViewer("ana", acceptingTerms: false)
            #expect(try await h.service.terms(viewer: viewer).isAcceptanceRequired)
            let version = h.service.configuration.termsVersion
            let accepted = try await h.service.acceptTerms(version: version, viewer: viewer)
            #expect(accepted.acceptedVersion == version)
            #expect(accepted.acceptedAt == h.clock.now)
            #expect(!accepted.isAcceptanceRequired)
            let user = try #require(try await h.accounts.service.user(id: viewer.userID))
            #expect(user.acceptedTermsVersion == version)
            #expect(h.service.termsStanding(of: user) == .accepted)
            let evidence = try await h.pool.read { try $0.query("SELECT version FROM terms_acceptances WHERE user_id = ?", [viewer.userID]) }
            #expect(try evidence.map { try $0["version"] as String } == [version])
        }
    }

    @Test func acceptingAgainKeepsTheFirstAcceptance() async throws {
        try await HouseholdsHarness.with { h in
            let viewer = try await h.confirmedViewer("ana", acceptingTerms: false)
            let version = h.service.configuration.termsVersion
            let first = try await h.service.acceptTerms(version: version, viewer: viewer)
            h.clock.advance(seconds: 60)
            #expect(try await h.service.acceptTerms(version: version, viewer: viewer).acceptedAt == first.acceptedAt)
        }
    }

    @Test func anotherVersionThanTheCurrentOneIsRefusedAndNothingIsStored() async throws {
        try await HouseholdsHarness.with { h in
            let viewer = try await h.confirmedViewer("ana", acceptingTerms: false)
            let error = await #expect(throws: ServiceError.self) { try await h.service.acceptTerms(version: "1999-01-01", viewer: viewer) }
            #expect(error?.code == .badUserInput)
            #expect(error?.problems.map(\.field) == ["input.version"])
            #expect(error?.problems.map(\.reason) == [.unknownValue])
            #expect(try await h.service.terms(viewer: viewer).acceptedVersion == nil)
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM terms_acceptances") } == 0)
        }
    }

    @Test func aNewTermsVersionAsksThoseWhoAcceptedAnOlderOneAgain() async throws {
        try await HouseholdsHarness.with(configure: { $0.termsVersion = "v1" }) { h in
            let viewer = try await h.confirmedViewer("ana", acceptingTerms: false)
            _ = try await h.service.acceptTerms(version: "v1", viewer: viewer)
            var configuration = h.service.configuration
            configuration.termsVersion = "v2"
            let updated = HouseholdService(
                configuration: configuration, pool: h.pool, changeLog: h.service.changeLog, accounts: h.accounts.service,
                analytics: h.service.analytics, logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()),
                clock: h.clock)
            let terms = try await updated.terms(viewer: viewer)
            #expect(terms.isAcceptanceRequired)
            #expect(terms.acceptedVersion == "v1")
            #expect(updated.termsStanding(of: try #require(try await h.accounts.service.user(id: viewer.userID))) == .outdated)
            _ = try await updated.acceptTerms(version: "v2", viewer: viewer)
            let versions = try await h.pool.read { try $0.query("SELECT version FROM terms_acceptances ORDER BY version") }
            #expect(try versions.map { try $0["version"] as String } == ["v1", "v2"])
        }
    }

    @Test func analyticsConsentIsOffUntilAllowedAndCanBeWithdrawn() async throws {
        try await HouseholdsHarness.with { h in
            let viewer = try await h.confirmedViewer("ana", acceptingTerms: false)
            #expect(try await h.accounts.service.user(id: viewer.userID)?.analyticsConsentedAt == nil)
            let allowed = try await h.service.setAnalyticsConsent(true, viewer: viewer)
            #expect(allowed.analyticsConsentedAt == h.clock.now)
            h.clock.advance(seconds: 60)
            #expect(try await h.service.setAnalyticsConsent(true, viewer: viewer).analyticsConsentedAt == allowed.analyticsConsentedAt)
            #expect(try await h.service.setAnalyticsConsent(false, viewer: viewer).analyticsConsentedAt == nil)
        }
    }
}

struct OnboardingChecklistTests {
    @Test func eachStepsIndexIsItsPlaceInTheWizard() {
        #expect(OnboardingStep.allCases.map(\.index) == Array(OnboardingStep.allCases.indices))
    }

    @Test func aNewHouseholdResumesAtTheAdminProfileStep() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            let checklist = try await h.service.onboarding(try await h.service.access(viewer: ana, householdID: id))
            #expect(checklist.steps.map(\.step) == OnboardingStep.allCases)
            #expect(checklist.steps.map(\.state) == [.done, .pending, .pending, .pending, .pending])
            #expect(checklist[.household].completedAt == h.clock.now)
            #expect(checklist.nextStep == .admin)
            #expect(!checklist.isComplete)
            #expect(checklist.completedAt == nil)
            #expect(!checklist.isDismissed)
        }
    }

    @Test func completingTheRequiredStepsCompletesTheWizardOnce() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            h.clock.advance(seconds: 600)
            let completed = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            #expect(completed.isComplete)
            #expect(completed.completedAt == h.clock.now)
            #expect(completed.nextStep == .members)
            h.clock.advance(seconds: 60)
            let again = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            #expect(again.completedAt == completed.completedAt)
            #expect(again[.admin].completedAt == completed[.admin].completedAt)
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM onboarding_completions") } == 1)
        }
    }

    @Test func theAdminStepNeedsTheCurrentTermsAccepted() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana", acceptingTerms: false)
            let id = try await h.household(as: ana)
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            }
            #expect(error?.code == .termsAcceptanceRequired)
            _ = try await h.service.acceptTerms(version: h.service.configuration.termsVersion, viewer: ana)
            #expect(try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana).isComplete)
        }
    }

    @Test func theChoreStepIsDoneByCreatingAChoreNotByAskingAndRequiredStepsCannotBeSkipped() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            let chore = await #expect(throws: ServiceError.self) { try await h.service.completeOnboardingStep(.chore, householdID: id, viewer: ana) }
            #expect(chore?.problems.map(\.reason) == [.notAllowed])
            #expect(chore?.problems.map(\.field) == ["input.step"])
            for step in [OnboardingStep.household, .admin] {
                let skip = await #expect(throws: ServiceError.self) { try await h.service.skipOnboardingStep(step, householdID: id, viewer: ana) }
                #expect(skip?.problems.map(\.reason) == [.notAllowed])
            }
            let checklist = try await h.service.onboarding(try await h.service.access(viewer: ana, householdID: id))
            #expect(checklist.steps.map(\.state) == [.done, .pending, .pending, .pending, .pending])
        }
    }

    @Test func skippedStepsStayListedUntilCompletedAndTheCardHidesWhenNothingIsPending() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            _ = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            let skipped = try await h.service.skipOnboardingStep(.members, householdID: id, viewer: ana)
            #expect(skipped[.members].state == .skipped)
            #expect(skipped[.members].skippedAt == h.clock.now)
            #expect(skipped.nextStep == .economy)
            _ = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana)
            let last = try await h.service.skipOnboardingStep(.chore, householdID: id, viewer: ana)
            #expect(last.nextStep == nil)
            #expect(last.isDismissed)
            h.clock.advance(seconds: 60)
            let revisited = try await h.service.completeOnboardingStep(.members, householdID: id, viewer: ana)
            #expect(revisited[.members].state == .done)
            #expect(revisited[.members].completedAt == h.clock.now)
            #expect(revisited[.members].skippedAt == skipped[.members].skippedAt)
            let skippedAgain = try await h.service.skipOnboardingStep(.members, householdID: id, viewer: ana)
            #expect(skippedAgain[.members].state == .done)
        }
    }

    @Test func visitsAreCounted() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            _ = try await h.service.visitOnboardingStep(.economy, householdID: id, viewer: ana)
            h.clock.advance(seconds: 60)
            let checklist = try await h.service.visitOnboardingStep(.economy, householdID: id, viewer: ana)
            #expect(checklist[.economy].visitCount == 2)
            #expect(checklist[.economy].lastVisitedAt == h.clock.now)
            #expect(checklist[.economy].state == .pending)
            #expect(checklist[.members].visitCount == 0)
        }
    }

    @Test func onlyTheHouseholdsAdminsChangeTheChecklist() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let bea = try await h.adult("bea")
            let id = try await h.household(as: ana)
            let now = h.clock.now
            try await h.pool.write { database in
                try database.execute(
                    """
                    INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
                    VALUES ('member-bea', ?, ?, 'co_parent', 'member', 'active', 'Bea', ?, ?)
                    """,
                    [id, bea.userID, now, now])
            }
            let outsider = try await h.adult("cal")
            for (viewer, code) in [(bea, ServiceError.Code.forbidden), (outsider, .notFound)] {
                await #expect(throws: ServiceError.self) { try await h.service.completeOnboardingStep(.members, householdID: id, viewer: viewer) }
                let skip = await #expect(throws: ServiceError.self) { try await h.service.skipOnboardingStep(.members, householdID: id, viewer: viewer) }
                #expect(skip?.code == code)
                let visit = await #expect(throws: ServiceError.self) { try await h.service.visitOnboardingStep(.members, householdID: id, viewer: viewer) }
                #expect(visit?.code == code)
            }
        }
    }
}

struct OnboardingAnalyticsTests {
    @Test func stepsSkipsAndTheCompletionAreRecordedWithCoarseProperties() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana", analytics: true)
            let id = try await h.household(as: ana)
            h.clock.advance(seconds: 600)
            _ = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            _ = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            _ = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana)
            _ = try await h.service.visitOnboardingStep(.members, householdID: id, viewer: ana)
            let rows = try await AnalyticsRow.all(in: h.pool)
            #expect(rows.map(\.name) == [
                "household_created", "onboarding_step_completed", "onboarding_step_completed", "onboarding_completed",
                "onboarding_skipped",
            ])
            #expect(rows.map(\.properties) == [
                "{}", #"{"step":"household","stepIndex":"0"}"#, #"{"step":"admin","stepIndex":"1"}"#,
                #"{"memberCountBucket":"1","timeToCompleteBucket":"5_30m"}"#, #"{"step":"economy"}"#,
            ])
            #expect(Set(rows.map(\.householdRef)) == [h.service.analytics.reference(id)])
            #expect(Set(rows.map(\.actorRef)) == [h.service.analytics.reference(ana.userID)])
        }
    }

    @Test func theWizardsOpeningIsRecordedOnlyWithConsentAndOnlyForOwnHouseholds() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let bea = try await h.adult("bea", analytics: true)
            let anasHousehold = try await h.household(as: ana)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana) == false)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: anasHousehold, viewer: ana) == false)
            #expect(try await h.service.recordOnboardingStarted(platform: .android, householdID: nil, viewer: bea))
            let error = await #expect(throws: ServiceError.self) {
                try await h.service.recordOnboardingStarted(platform: .web, householdID: anasHousehold, viewer: bea)
            }
            #expect(error?.code == .notFound)
            let rows = try await AnalyticsRow.all(in: h.pool)
            #expect(rows.map(\.name) == ["onboarding_started"])
            #expect(rows.map(\.properties) == [#"{"platform":"android"}"#])
            #expect(rows.map(\.householdRef) == [nil])
        }
    }

    @Test func withoutConsentTheWholeWizardRecordsNothing() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            _ = try await h.service.recordOnboardingStarted(platform: .ios, householdID: id, viewer: ana)
            _ = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            _ = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana)
            _ = try await h.service.completeOnboardingStep(.members, householdID: id, viewer: ana)
            #expect(try await AnalyticsRow.all(in: h.pool).isEmpty)
            #expect(try await h.service.onboarding(try await h.service.access(viewer: ana, householdID: id)).isComplete)
        }
    }

    @Test func withdrawingConsentStopsRecording() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana", analytics: true)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana))
            _ = try await h.service.setAnalyticsConsent(false, viewer: ana)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana) == false)
            #expect(try await AnalyticsRow.all(in: h.pool).count == 1)
        }
    }

    @Test func rowsHoldNoIdsNamesOrAddresses() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("privacyparent", analytics: true)
            _ = try await h.accounts.service.updateProfile(viewer: ana, ProfileChange(displayName: "Ana Lopez"))
            _ = try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana)
            let created = try await h.service.createHousehold(HouseholdService.NewHousehold(name: "Casa Lopez"), viewer: ana)
            let id = created.household.id
            _ = try await h.service.recordOnboardingStarted(platform: .web, householdID: id, viewer: ana)
            _ = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana)
            _ = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana)
            _ = try await h.service.completeOnboardingStep(.members, householdID: id, viewer: ana)
            let rows = try await AnalyticsRow.all(in: h.pool)
            #expect(rows.count == 8)
            let secrets = [id, created.member.id, ana.userID, ana.sessionID, "privacyparent", "lopez", "example.com"]
            for row in rows {
                let text = [row.name, row.householdRef ?? "", row.actorRef ?? "", row.properties, row.occurredAt].joined(separator: " ")
                for secret in secrets { #expect(!text.lowercased().contains(secret.lowercased()), "\(secret) in \(row)") }
                #expect(row.occurredAt.hasSuffix(":00.000Z"), "minute precision: \(row.occurredAt)")
            }
        }
    }

    @Test func completionBucketsAreCoarse() {
        #expect([0, 299, 300, 1799, 1800, 7199, 7200, 86_399, 86_400, 1e7].map(OnboardingBuckets.timeToComplete(seconds:)) == [
            "lt_5m", "lt_5m", "5_30m", "5_30m", "30m_2h", "30m_2h", "2_24h", "2_24h", "gte_24h", "gte_24h",
        ])
        #expect([1, 2, 3, 4, 5, 40].map(OnboardingBuckets.memberCount) == ["1", "2", "3_4", "3_4", "5_plus", "5_plus"])
    }
}

/// Replays of the onboarding and terms mutations (docs/api-conventions.md, "Mutations"): the same
/// `clientMutationID` by the same user returns the first result and changes nothing.
struct OnboardingReplayTests {
    @Test func aReplayedVisitCountsNoSecondVisit() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let id = try await h.household(as: ana)
            let visited = h.clock.now
            _ = try await h.service.visitOnboardingStep(.economy, householdID: id, viewer: ana, clientMutationID: "visit-1")
            h.clock.advance(seconds: 60)
            let replayed = try await h.service.visitOnboardingStep(.economy, householdID: id, viewer: ana, clientMutationID: "visit-1")
            #expect(replayed[.economy].visitCount == 1 && replayed[.economy].lastVisitedAt == visited)
            let next = try await h.service.visitOnboardingStep(.economy, householdID: id, viewer: ana, clientMutationID: "visit-2")
            #expect(next[.economy].visitCount == 2)
        }
    }

    @Test func aReplayedSkipRecordsNoSecondSkipWhileASkipAgainDoes() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana", analytics: true)
            let id = try await h.household(as: ana)
            let skipped = h.clock.now
            _ = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana, clientMutationID: "skip-1")
            h.clock.advance(seconds: 60)
            let replayed = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana, clientMutationID: "skip-1")
            #expect(replayed[.economy].state == .skipped && replayed[.economy].skippedAt == skipped)
            #expect(try await AnalyticsRow.all(in: h.pool).filter { $0.name == "onboarding_skipped" }.count == 1)
            let again = try await h.service.skipOnboardingStep(.economy, householdID: id, viewer: ana)
            #expect(again[.economy].skippedAt == h.clock.now)
            #expect(try await AnalyticsRow.all(in: h.pool).filter { $0.name == "onboarding_skipped" }.count == 2)
        }
    }

    @Test func aReplayedCompletionAnswersTheChecklistEvenWhenItWouldNowBeRefused() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana", analytics: true)
            let id = try await h.household(as: ana)
            let completed = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana, clientMutationID: "done-1")
            #expect(completed[.admin].state == .done)
            let rows = try await AnalyticsRow.all(in: h.pool)
            // As if the server had since moved on to newer terms: a fresh completion is refused.
            try await h.pool.write { try $0.execute("UPDATE users SET accepted_terms_version = 'older' WHERE id = ?", [ana.userID]) }
            let replayed = try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana, clientMutationID: "done-1")
            #expect(replayed[.admin].completedAt == completed[.admin].completedAt && replayed.isComplete)
            #expect(try await AnalyticsRow.all(in: h.pool) == rows)
            let fresh = await #expect(throws: ServiceError.self) {
                try await h.service.completeOnboardingStep(.admin, householdID: id, viewer: ana, clientMutationID: "done-2")
            }
            #expect(fresh?.code == .termsAcceptanceRequired)
        }
    }

    @Test func aReplayedWizardStartRecordsNoSecondEventAndAnswersAsTheFirstTime() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana", analytics: true)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana, clientMutationID: "start-1"))
            _ = try await h.service.setAnalyticsConsent(false, viewer: ana)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana, clientMutationID: "start-1"))
            _ = try await h.service.setAnalyticsConsent(true, viewer: ana)
            #expect(try await h.service.recordOnboardingStarted(platform: .ios, householdID: nil, viewer: ana, clientMutationID: "start-1"))
            #expect(try await AnalyticsRow.all(in: h.pool).map(\.name) == ["onboarding_started"])
        }
    }

    @Test func aReplayedTermsAcceptanceChangesNothingAndAnswersTheTermsNow() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana", acceptingTerms: false)
            let version = h.service.configuration.termsVersion
            let accepted = try await h.service.acceptTerms(version: version, viewer: ana, clientMutationID: "terms-1")
            #expect(accepted.acceptedVersion == version && !accepted.isAcceptanceRequired)
            // As if the version in force had changed since: the replay accepts nothing new.
            try await h.pool.write { try $0.execute("UPDATE users SET accepted_terms_version = 'older' WHERE id = ?", [ana.userID]) }
            h.clock.advance(seconds: 60)
            let replayed = try await h.service.acceptTerms(version: version, viewer: ana, clientMutationID: "terms-1")
            #expect(replayed.acceptedVersion == "older" && replayed.isAcceptanceRequired)
            #expect(try await h.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM terms_acceptances") } == 1)
            let reused = await #expect(throws: ServiceError.self) {
                try await h.service.setAnalyticsConsent(true, viewer: ana, clientMutationID: "terms-1")
            }
            #expect(reused?.code == .conflict && reused?.reason == .clientMutationIdReused)
        }
    }

    @Test func aReplayedConsentDoesNotUndoALaterRefusal() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.adult("ana")
            let allowed = try await h.service.setAnalyticsConsent(true, viewer: ana, clientMutationID: "consent-1")
            #expect(allowed.analyticsConsentedAt == h.clock.now)
            _ = try await h.service.setAnalyticsConsent(false, viewer: ana, clientMutationID: "consent-2")
            let replayed = try await h.service.setAnalyticsConsent(true, viewer: ana, clientMutationID: "consent-1")
            #expect(replayed.analyticsConsentedAt == nil)
        }
    }
}
