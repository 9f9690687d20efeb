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
                let input = MutationInput(arguments)
                let result = try await accounts.signIn(
                    provider: provider, idToken: try input.requiredString("idToken"), nonce: input.string("nonce"),
                    deviceLabel: input.string("deviceLabel"), displayName: input.string("displayName"),
                    clientAddress: RequestContext.of(context).clientAddress, invitationToken: input.string("invitationToken"))
                return ProviderSignInPayloadValue(result: result)
            }
        }
        resolvers.resolveMutation("linkSignInProvider") { input, context in
            let user = try await accounts.linkSignInProvider(
                try input.providerCredential(), viewer: try context.viewer(), proof: try input.reauthenticationProof(),
                clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)]
        }
        resolvers.resolveMutation("unlinkSignInProvider") { input, context in
            let user = try await accounts.unlinkSignInProvider(
                try input.enumValue("provider"), viewer: try context.viewer(), proof: try input.reauthenticationProof(),
                clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)]
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
