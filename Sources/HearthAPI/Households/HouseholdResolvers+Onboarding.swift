import FoundationEssentials
import GraphQL
import HearthServices

extension HouseholdResolvers {
    /// Terms of service, analytics consent, the setup checklist and the wizard's start.
    static func installOnboarding(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveAsync("Query", "terms") { _, _, context, _ in
            TermsValue(status: try await households.terms(viewer: RequestContext.of(context).optionalViewer))
        }
        resolvers.resolveMutation("acceptTerms") { input, context in
            let viewer = try context.viewer()
            let status = try await households.acceptTerms(
                version: try input.requiredString("version"), viewer: viewer, clientMutationID: input.clientMutationID)
            return ["terms": TermsValue(status: status)]
        }
        resolvers.resolveMutation("setAnalyticsConsent") { input, context in
            let viewer = try context.viewer()
            let user = try await households.setAnalyticsConsent(
                try input.requiredBool("isConsented"), viewer: viewer, clientMutationID: input.clientMutationID)
            return ["user": UserValue(record: user, isViewer: true)]
        }
        resolvers.resolveField("Household", "onboarding") { source, _, _, _ in
            let household = source as! HouseholdValue
            if let checklist = household.knownOnboarding { return .value(OnboardingChecklistValue(checklist: checklist)) }
            household.noteReadBeyondInputs()
            return .async { OnboardingChecklistValue(checklist: try await households.onboarding(household.access)) }
        }
        let stepMutations: [(String, @Sendable (OnboardingStep, String, Viewer, String?) async throws -> OnboardingChecklist)] = [
            ("completeOnboardingStep", households.completeOnboardingStep),
            ("skipOnboardingStep", households.skipOnboardingStep),
            ("visitOnboardingStep", households.visitOnboardingStep),
        ]
        for (name, change) in stepMutations {
            resolvers.resolveMutation(name) { input, context in
                let viewer = try context.viewer()
                let checklist = try await change(
                    try input.enumValue("step"), try input.requiredString("householdId"), viewer, input.clientMutationID)
                return ["onboarding": OnboardingChecklistValue(checklist: checklist)]
            }
        }
        resolvers.resolveMutation("recordOnboardingStarted") { input, context in
            let viewer = try context.viewer()
            let isRecorded = try await households.recordOnboardingStarted(
                platform: try input.enumValue("platform"), householdID: input.string("householdId"), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["isRecorded": isRecorded]
        }
    }
}

/// A `Terms` of `schema.graphql`.
struct TermsValue: Sendable, FieldResolvable {
    let status: TermsStatus

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "currentVersion": status.currentVersion
        case "url": status.url
        case "acceptedVersion": status.acceptedVersion
        case "acceptedAt": status.acceptedAt
        case "isAcceptanceRequired": status.isAcceptanceRequired
        default: nil
        }
    }
}

/// An `OnboardingChecklist` of `schema.graphql`.
struct OnboardingChecklistValue: Sendable, FieldResolvable {
    let checklist: OnboardingChecklist

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "steps": checklist.steps.map(OnboardingStepStatusValue.init(status:))
        case "nextStep": checklist.nextStep?.graphQLName
        case "isComplete": checklist.isComplete
        case "completedAt": checklist.completedAt
        case "firstChoreCompletedAt": checklist.firstChoreCompletedAt
        case "isDismissed": checklist.isDismissed
        default: nil
        }
    }
}

/// An `OnboardingStepStatus` of `schema.graphql`.
struct OnboardingStepStatusValue: Sendable, FieldResolvable {
    let status: OnboardingStepStatus

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "step": status.step.graphQLName
        case "index": status.step.index
        case "isRequired": status.step.isRequired
        case "state": status.state.graphQLName
        case "completedAt": status.completedAt
        case "skippedAt": status.skippedAt
        case "visitCount": status.visitCount
        default: nil
        }
    }
}
