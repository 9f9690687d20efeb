import FoundationEssentials
import GraphQL
import HearthServices

extension HouseholdResolvers {
    /// Terms of service, analytics consent, the setup checklist and the wizard's start.
    static func installOnboarding(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveAsync("Query", "terms") { _, _, context, _ in
            TermsValue(status: try await households.terms(viewer: RequestContext.of(context).optionalViewer))
        }
        resolvers.resolveAsync("Mutation", "acceptTerms") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let status = try await households.acceptTerms(version: arguments.input.string("version") ?? "", viewer: viewer)
            return ["terms": TermsValue(status: status)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "setAnalyticsConsent") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            guard case .bool(let isConsented)? = arguments.input["isConsented"] else { return nil }
            let user = try await households.setAnalyticsConsent(isConsented, viewer: viewer)
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Household", "onboarding") { source, _, _, _ in
            OnboardingChecklistValue(checklist: try await households.onboarding((source as! HouseholdValue).access))
        }
        let stepMutations: [(String, @Sendable (OnboardingStep, String, Viewer) async throws -> OnboardingChecklist)] = [
            ("completeOnboardingStep", households.completeOnboardingStep),
            ("skipOnboardingStep", households.skipOnboardingStep),
            ("visitOnboardingStep", households.visitOnboardingStep),
        ]
        for (name, change) in stepMutations {
            resolvers.resolveAsync("Mutation", name) { _, arguments, context, _ in
                let viewer = try RequestContext.of(context).viewer()
                let input = arguments.input
                // The schema's enum admits only the steps' names.
                let step = GraphQLEnum.value(input.string("step"), as: OnboardingStep.self)!
                let checklist = try await change(step, input.string("householdId") ?? "", viewer)
                return ["onboarding": OnboardingChecklistValue(checklist: checklist)] as [String: any Sendable]
            }
        }
        resolvers.resolveAsync("Mutation", "recordOnboardingStarted") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            // The schema's enum admits only the platforms' names.
            let platform = GraphQLEnum.value(input.string("platform"), as: ClientPlatform.self)!
            let isRecorded = try await households.recordOnboardingStarted(
                platform: platform, householdID: input.string("householdId"), viewer: viewer)
            return ["isRecorded": isRecorded] as [String: any Sendable]
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
        case "nextStep": checklist.nextStep.map { GraphQLEnum.name(of: $0) }
        case "isComplete": checklist.isComplete
        case "completedAt": checklist.completedAt
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
        case "step": GraphQLEnum.name(of: status.step)
        case "index": status.step.index
        case "isRequired": status.step.isRequired
        case "state": GraphQLEnum.name(of: status.state)
        case "completedAt": status.completedAt
        case "skippedAt": status.skippedAt
        case "visitCount": status.visitCount
        default: nil
        }
    }
}
