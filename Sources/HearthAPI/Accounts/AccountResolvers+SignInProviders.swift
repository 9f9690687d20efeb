import GraphQL
import HearthDomain
import HearthServices

extension AccountResolvers {
    /// `signInWithGoogle`, `signInWithApple`, `linkSignInProvider`, `unlinkSignInProvider` and
    /// `User.signInMethods`.
    static func installSignInProviders(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveAsync("User", "signInMethods") { source, _, _, _ in
            guard let user = source as? UserValue, user.isViewer else { return nil }
            return try await accounts.signInMethods(userID: user.record.id).map(\.rawValue)
        }
        for (field, provider) in [("signInWithGoogle", SignInProvider.google), ("signInWithApple", .apple)] {
            resolvers.resolveAsync("Mutation", field) { _, arguments, context, _ in
                let input = arguments.input
                let result = try await accounts.signIn(
                    provider: provider, idToken: input.string("idToken") ?? "", nonce: input.string("nonce"),
                    deviceLabel: input.string("deviceLabel"), displayName: input.string("displayName"),
                    clientAddress: RequestContext.of(context).clientAddress)
                return ProviderSignInPayloadValue(result: result)
            }
        }
        resolvers.resolveAsync("Mutation", "linkSignInProvider") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let input = arguments.input
            let user = try await accounts.linkSignInProvider(
                try provider(input), viewer: try context.viewer(), idToken: input.string("idToken") ?? "",
                nonce: input.string("nonce"), currentPassword: input.string("currentPassword"), clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "unlinkSignInProvider") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let user = try await accounts.unlinkSignInProvider(try provider(arguments.input), viewer: viewer)
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
    }

    /// The `provider` of an input: a `SignInProvider` enum value, which validation has checked.
    private static func provider(_ input: OrderedMap<String, JSON>) throws -> SignInProvider {
        switch input.string("provider") {
        case "GOOGLE": return .google
        case "APPLE": return .apple
        default:
            throw ServiceError.invalid(InputProblems([
                FieldProblem(field: "input.provider", reason: .invalidFormat, message: "Choose GOOGLE or APPLE.")]))
        }
    }
}

/// A `ProviderSignInPayload` of `schema.graphql`.
struct ProviderSignInPayloadValue: Sendable, FieldResolvable {
    let result: ProviderSignInResult

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "outcome": result.outcome.rawValue
        case "user": result.user.map { UserValue(record: $0, isViewer: true) }
        case "tokens": result.session.map(AuthTokensValue.init(issued:))
        case "existingAccountEmail": result.existingAccountEmail
        case "existingAccountSignInMethods":
            result.outcome == .linkRequired ? result.existingAccountSignInMethods.map(\.rawValue) : nil
        default: nil
        }
    }
}
