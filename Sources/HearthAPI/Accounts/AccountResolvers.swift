import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the accounts part of `schema.graphql`: `me`, `sessions`, the `User` and
/// `Session` nodes, and the account mutations, over ``AccountService``.
enum AccountResolvers {
    static func install(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveField("Query", "me") { _, _, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            func value(_ user: UserRecord?) throws -> UserValue {
                guard let user else { throw ServiceError.signedOut }
                return UserValue(record: user, isViewer: true)
            }
            if let user = try accounts.userWithoutWaiting(id: viewer.userID) { return .value(try value(user)) }
            return .async { try value(try await accounts.user(id: viewer.userID)) }
        }
        resolvers.resolveAsync("Query", "sessions") { _, _, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            return try await accounts.activeSessions(viewer: viewer).map { SessionValue(record: $0, isCurrent: $0.id == viewer.sessionID) }
        }
        resolvers.resolveAsync("User", "pendingEmail") { source, _, _, _ in
            guard let user = source as? UserValue, user.isViewer else { return nil }
            return try await accounts.pendingEmail(userID: user.record.id)
        }
        installSignUp(into: &resolvers, accounts: accounts)
        installSessions(into: &resolvers, accounts: accounts)
        installPasswordsAndProfile(into: &resolvers, accounts: accounts)
        installSignInProviders(into: &resolvers, accounts: accounts)
    }

    /// The objects of `ids` the viewer may see, for `node`/`nodes`: themselves and their own
    /// sessions. The sessions are read only when an id may be a session's (``GlobalID``).
    static func nodes(ids: [String], accounts: AccountService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        if ids.contains(viewer.userID), let user = try await accounts.user(id: viewer.userID) {
            found[user.id] = UserValue(record: user, isViewer: true)
        }
        let wanted = Set(ids.filter { GlobalID.mayName(.session, $0) })
        guard !wanted.isEmpty else { return found }
        for session in try await accounts.activeSessions(viewer: viewer) where wanted.contains(session.id) {
            found[session.id] = SessionValue(record: session, isCurrent: session.id == viewer.sessionID)
        }
        return found
    }

    private static func installSignUp(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveMutation("register") { input, context in
            let request = RegistrationRequest(
                username: try input.requiredString("username"), email: try input.requiredString("email"),
                password: try input.requiredString("password"), displayName: input.string("displayName"),
                deviceLabel: input.string("deviceLabel"), invitationToken: input.string("invitationToken"))
            let (user, issued) = try await accounts.register(request, clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true), "tokens": AuthTokensValue(issued: issued)]
        }
        resolvers.resolveMutation("confirmEmail") { input, _ in
            let user = try await accounts.confirmEmail(token: try input.requiredString("token"))
            // The token, sent to the address, proves its holder owns the account's inbox: the payload
            // shows the account's own fields even to a signed-out caller (a confirmation page).
            return ["user": UserValue(record: user, isViewer: true)]
        }
        resolvers.resolveMutation("resendConfirmation") { _, context in
            let viewer = try context.viewer()
            try await accounts.resendConfirmation(viewer: viewer, clientAddress: context.clientAddress)
            guard let user = try await accounts.user(id: viewer.userID) else { throw ServiceError.signedOut }
            return ["email": user.email]
        }
    }

    private static func installSessions(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveMutation("login") { input, context in
            let (user, issued) = try await accounts.login(
                email: try input.requiredString("email"), password: try input.requiredString("password"),
                deviceLabel: input.string("deviceLabel"), clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true), "tokens": AuthTokensValue(issued: issued)]
        }
        resolvers.resolveMutation("refreshSession") { input, context in
            let issued = try await accounts.refresh(refreshToken: try input.requiredString("refreshToken"), clientAddress: context.clientAddress)
            return ["tokens": AuthTokensValue(issued: issued)]
        }
        resolvers.resolveMutation("logout") { _, context in
            let viewer = try context.viewer()
            try await accounts.logout(viewer: viewer)
            return ["sessionId": viewer.sessionID]
        }
        resolvers.resolveMutation("logoutEverywhere") { _, context in
            ["endedSessionCount": try await accounts.logoutEverywhere(viewer: try context.viewer())]
        }
        resolvers.resolveMutation("revokeSession") { input, context in
            let viewer = try context.viewer()
            let session = try await accounts.revokeSession(
                id: try input.requiredString("sessionId"), viewer: viewer, proof: try input.reauthenticationProof(),
                clientAddress: context.clientAddress)
            return ["session": SessionValue(record: session, isCurrent: session.id == viewer.sessionID)]
        }
    }

    private static func installPasswordsAndProfile(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveMutation("requestPasswordReset") { input, context in
            try await accounts.requestPasswordReset(email: try input.requiredString("email"), clientAddress: context.clientAddress)
            return ["accepted": true]
        }
        resolvers.resolveMutation("resetPassword") { input, _ in
            let user = try await accounts.resetPassword(token: try input.requiredString("token"), newPassword: try input.requiredString("newPassword"))
            return ["user": UserValue(record: user, isViewer: false)]
        }
        resolvers.resolveMutation("changePassword") { input, context in
            let user = try await accounts.changePassword(
                viewer: try context.viewer(), newPassword: try input.requiredString("newPassword"), proof: try input.reauthenticationProof(),
                clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)]
        }
        resolvers.resolveMutation("updateProfile") { input, context in
            let user = try await accounts.updateProfile(
                viewer: try context.viewer(), try input.profileChange(uploads: context.uploads), clientMutationID: input.clientMutationID)
            return ["user": UserValue(record: user, isViewer: true)]
        }
        resolvers.resolve("User", "avatarUrl") { source, _, _, _ in
            (source as? UserValue)?.record.avatarId.map(accounts.avatarURL(id:))
        }
        resolvers.resolveMutation("changeEmail") { input, context in
            let user = try await accounts.requestEmailChange(
                viewer: try context.viewer(), newEmail: try input.requiredString("newEmail"), proof: try input.reauthenticationProof(),
                clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)]
        }
    }
}

extension Arguments {
    /// The `input` argument of a mutation, empty when absent.
    var input: OrderedMap<String, JSON> { object("input") ?? [:] }
}

extension OrderedMap where Key == String, Value == JSON {
    /// The string at `key`, `nil` when absent, null or not a string.
    func string(_ key: String) -> String? {
        if case .string(let text)? = self[key] { text } else { nil }
    }
}
