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
