import FoundationEssentials
import HearthDomain
import HearthStore

/// Where the setup wizard runs, for `onboarding_started`. Stored as the raw value.
public enum ClientPlatform: String, Sendable, CaseIterable {
    /// iOS or iPadOS.
    case ios
    /// Android.
    case android
    /// A web browser.
    case web
    /// Anything else.
    case other
}

extension HouseholdService {
    // MARK: - The checklist (FR-ONBOARD-7)

    /// The setup checklist of the household `access` grants.
    public func onboarding(_ access: HouseholdAccess) async throws -> OnboardingChecklist {
        try await checklist(access, at: keptReadMark())
    }

    /// The household `id` with its setup checklist, read together (the checklist screen: one
    /// read transaction instead of two).
    /// - Throws: `NOT_FOUND` when the viewer is not an active member of it, as ``household(id:viewer:)``.
    public func householdWithOnboarding(id: String, viewer: Viewer) async throws
        -> (household: AccessibleHousehold, onboarding: OnboardingChecklist) {
        guard GlobalID.mayName(.household, id) else { throw ServiceError.householdNotFound }  // no mark, no read
        return try await householdWithOnboarding(id: id, viewer: viewer, at: readMark())
    }

    /// The household `id` with its setup checklist, as ``householdWithOnboarding(id:viewer:)``:
    /// kept under `mark` (``readMark()``) or, without one, read together.
    public func householdWithOnboarding(id: String, viewer: Viewer, at mark: HouseholdReadMark?) async throws
        -> (household: AccessibleHousehold, onboarding: OnboardingChecklist) {
        guard GlobalID.mayName(.household, id) else { throw ServiceError.householdNotFound }
        if let mark {
            let household = try await keptMembership(of: viewer, in: id, at: mark.change)
            return (household, try await checklist(household.access, at: mark.change))
        }
        return try await pool.readPreferringCallingThread { database in
            let (access, household) = try HouseholdAccess.checkReadingHousehold(viewer: viewer, householdID: id, in: database)
            return ((household, access), try OnboardingProgress.checklist(HouseholdScope(access, database)))
        }
    }

    /// Marks `step` of `householdID`'s checklist done. Admins only.
    ///
    /// `household` is done from creation (completing it again changes nothing); `admin` (the
    /// admin's profile and the terms) needs the current terms accepted by `viewer`; `members`
    /// and `economy` are done when the admin says so (`updateEconomySettings` does `economy`
    /// too); `chore` is done by creating a chore, not by this call.
    /// - Returns: The checklist now (also on a replay of `clientMutationID`).
    /// - Throws: `NOT_FOUND`, `FORBIDDEN` for members; `TERMS_ACCEPTANCE_REQUIRED` for `admin`
    ///   before the terms are accepted; `BAD_USER_INPUT` (reason `NOT_ALLOWED` at `input.step`)
    ///   for `chore`; `CONFLICT` for a reused `clientMutationID`.
    public func completeOnboardingStep(
        _ step: OnboardingStep, householdID: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> OnboardingChecklist {
        if step == .chore {
            throw Self.stepProblem("Create a chore first: the chore step is done by creating one.")
        }
        return try await changeChecklist(
            "completeOnboardingStep", householdID: householdID, viewer: viewer, clientMutationID: clientMutationID
        ) { [self] scope, now in
            if step == .admin {
                guard let user = try UserRecord.find(id: viewer.userID, in: scope.database) else { throw ServiceError.signedOut }
                guard termsStanding(of: user) == .accepted else { throw ServiceError.termsAcceptanceRequired }
            }
            try markOnboardingStepDone(step, scope, at: now)
        }
    }

    /// Skips an optional step ("later"): it stays listed, as skipped, until completed. Skipping a
    /// step already done changes nothing. Admins only.
    /// - Returns: The checklist now (also on a replay of `clientMutationID`).
    /// - Throws: `NOT_FOUND`, `FORBIDDEN`; `BAD_USER_INPUT` (reason `NOT_ALLOWED` at
    ///   `input.step`) for a required step; `CONFLICT` for a reused `clientMutationID`.
    public func skipOnboardingStep(
        _ step: OnboardingStep, householdID: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> OnboardingChecklist {
        if step.isRequired {
            throw Self.stepProblem("The household and admin profile steps cannot be skipped.")
        }
        return try await changeChecklist(
            "skipOnboardingStep", householdID: householdID, viewer: viewer, clientMutationID: clientMutationID
        ) { [self] scope, now in
            if try OnboardingProgress.markSkipped(step, at: now, scope) {
                try analytics.record(
                    .onboardingSkipped, actorID: viewer.userID, householdID: scope.access.householdID,
                    properties: ["step": step.rawValue], at: now, in: scope.database)
            }
        }
    }

    /// Records that the wizard showed `step` (a first visit, a resume or a revisit). Admins
    /// only. A replay of `clientMutationID` counts no second visit.
    /// - Returns: The checklist now.
    /// - Throws: `NOT_FOUND`, `FORBIDDEN`; `CONFLICT` for a reused `clientMutationID`.
    public func visitOnboardingStep(
        _ step: OnboardingStep, householdID: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> OnboardingChecklist {
        try await changeChecklist(
            "visitOnboardingStep", householdID: householdID, viewer: viewer, clientMutationID: clientMutationID
        ) { scope, now in
            try OnboardingProgress.recordVisit(step, at: now, scope)
        }
    }

    /// Runs `change` to `householdID`'s checklist as its admin `viewer`'s mutation `mutation`,
    /// remembered under `clientMutationID` (a replay changes nothing), and returns the checklist
    /// as it is after the commit.
    private func changeChecklist(
        _ mutation: String, householdID: String, viewer: Viewer, clientMutationID: String?,
        _ change: @escaping @Sendable (HouseholdScope, Date) throws -> Void
    ) async throws -> OnboardingChecklist {
        let now = clock.storedNow
        let changed = try await mutate(mutation, by: viewer, replaying: clientMutationID, at: now) { database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            try change(scope, now)
            return HouseholdReference(householdID: scope.access.householdID)
        }
        return try await onboarding(try await access(viewer: viewer, householdID: changed.householdID))
    }

    /// Records that `viewer` opened the setup wizard on `platform` (the activation funnel's
    /// denominator), for `householdID` when it was opened for an existing household. A replay of
    /// `clientMutationID` records nothing and answers what the first run did.
    /// - Returns: Whether it was recorded: `false` without the viewer's analytics consent.
    /// - Throws: `NOT_FOUND` when `householdID` is not a household of the viewer's (whether or not
    ///   they consented, so the answer does not depend on it); `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func recordOnboardingStarted(
        platform: ClientPlatform, householdID: String?, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Bool {
        let now = clock.storedNow
        return try await mutate("recordOnboardingStarted", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let access = try householdID.map { try HouseholdAccess.check(viewer: viewer, householdID: $0, in: database) }
            return try analytics.record(
                .onboardingStarted, actorID: viewer.userID, householdID: access?.householdID,
                properties: ["platform": platform.rawValue], at: now, in: database)
        }
    }

    /// Marks `step` of the household of `scope` done, inside the caller's transaction, by the
    /// user the scope's access was checked for: the one place a step becomes done. The first
    /// time, it records `onboarding_step_completed`, and when that completes the required steps
    /// for the first time, the household's completion and `onboarding_completed`. Done again,
    /// nothing happens.
    func markOnboardingStepDone(_ step: OnboardingStep, _ scope: HouseholdScope, at now: Date) throws {
        let (actorID, householdID, database) = (scope.access.userID, scope.access.householdID, scope.database)
        guard try OnboardingProgress.setDone(step, at: now, scope) else { return }
        try analytics.record(
            .onboardingStepCompleted, actorID: actorID, householdID: householdID,
            properties: ["step": step.rawValue, "stepIndex": String(step.index)], at: now, in: database)
        guard try OnboardingProgress.recordCompletionIfDue(at: now, scope) else { return }
        let createdAt = try scope.scalar(Date.self, "SELECT created_at FROM households WHERE id = {household}") ?? now
        let members = try scope.scalar(
            Int.self, "SELECT count(*) FROM members WHERE household_id = {household} AND status = 'active'") ?? 0
        try analytics.record(
            .onboardingCompleted, actorID: actorID, householdID: householdID,
            properties: [
                "timeToCompleteBucket": OnboardingBuckets.timeToComplete(seconds: now.timeIntervalSince(createdAt)),
                "memberCountBucket": OnboardingBuckets.memberCount(members),
            ],
            at: now, in: database)
    }

    private static func stepProblem(_ message: String) -> ServiceError {
        .invalid(InputProblems([FieldProblem(field: "input.step", reason: .notAllowed, message: message)]))
    }
}

/// The coarse buckets `onboarding_completed` carries instead of exact values (onboarding.md's
/// privacy model: internal BI, no precise figures about a family).
public enum OnboardingBuckets {
    /// The time from the household's creation to the wizard's completion: `lt_5m`, `5_30m`,
    /// `30m_2h`, `2_24h` or `gte_24h` (each bucket includes its lower bound).
    public static func timeToComplete(seconds: Double) -> String {
        switch seconds {
        case ..<300: "lt_5m"
        case ..<1800: "5_30m"
        case ..<7200: "30m_2h"
        case ..<86_400: "2_24h"
        default: "gte_24h"
        }
    }

    /// The household's active members: `1`, `2`, `3_4` or `5_plus`.
    public static func memberCount(_ count: Int) -> String {
        switch count {
        case ...1: "1"
        case 2: "2"
        case 3...4: "3_4"
        default: "5_plus"
        }
    }
}
