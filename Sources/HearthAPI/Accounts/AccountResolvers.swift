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

    /// The objects of `ids` the viewer may see, for `node`/`nodes`: themselves and their own sessions.
    static func nodes(ids: [String], accounts: AccountService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        if ids.contains(viewer.userID), let user = try await accounts.user(id: viewer.userID) {
            found[user.id] = UserValue(record: user, isViewer: true)
        }
        let wanted = Set(ids)
        for session in try await accounts.activeSessions(viewer: viewer) where wanted.contains(session.id) {
            found[session.id] = SessionValue(record: session, isCurrent: session.id == viewer.sessionID)
        }
        return found
    }

    private static func installSignUp(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveAsync("Mutation", "register") { _, arguments, context, _ in
            let input = arguments.input
            let request = RegistrationRequest(
                username: input.string("username") ?? "", email: input.string("email") ?? "",
                password: input.string("password") ?? "", displayName: input.string("displayName"),
                deviceLabel: input.string("deviceLabel"))
            let (user, issued) = try await accounts.register(request, clientAddress: RequestContext.of(context).clientAddress)
            return ["user": UserValue(record: user, isViewer: true), "tokens": AuthTokensValue(issued: issued)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "confirmEmail") { _, arguments, _, _ in
            let user = try await accounts.confirmEmail(token: arguments.input.string("token") ?? "")
            // The token, sent to the address, proves its holder owns the account's inbox: the payload
            // shows the account's own fields even to a signed-out caller (a confirmation page).
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "resendConfirmation") { _, _, context, _ in
            let context = RequestContext.of(context)
            let viewer = try context.viewer()
            try await accounts.resendConfirmation(viewer: viewer, clientAddress: context.clientAddress)
            guard let user = try await accounts.user(id: viewer.userID) else { throw ServiceError.signedOut }
            return ["email": user.email] as [String: any Sendable]
        }
    }

    private static func installSessions(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveAsync("Mutation", "login") { _, arguments, context, _ in
            let input = arguments.input
            let (user, issued) = try await accounts.login(
                email: input.string("email") ?? "", password: input.string("password") ?? "",
                deviceLabel: input.string("deviceLabel"), clientAddress: RequestContext.of(context).clientAddress)
            return ["user": UserValue(record: user, isViewer: true), "tokens": AuthTokensValue(issued: issued)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "refreshSession") { _, arguments, _, _ in
            let issued = try await accounts.refresh(refreshToken: arguments.input.string("refreshToken") ?? "")
            return ["tokens": AuthTokensValue(issued: issued)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "logout") { _, _, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            try await accounts.logout(viewer: viewer)
            return ["sessionId": viewer.sessionID] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "logoutEverywhere") { _, _, context, _ in
            let count = try await accounts.logoutEverywhere(viewer: try RequestContext.of(context).viewer())
            return ["endedSessionCount": count] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "revokeSession") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let session = try await accounts.revokeSession(id: arguments.input.string("sessionId") ?? "", viewer: viewer)
            return ["session": SessionValue(record: session, isCurrent: session.id == viewer.sessionID)] as [String: any Sendable]
        }
    }

    private static func installPasswordsAndProfile(into resolvers: inout Resolvers, accounts: AccountService) {
        resolvers.resolveAsync("Mutation", "requestPasswordReset") { _, arguments, context, _ in
            try await accounts.requestPasswordReset(
                email: arguments.input.string("email") ?? "", clientAddress: RequestContext.of(context).clientAddress)
            return ["accepted": true] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "resetPassword") { _, arguments, _, _ in
            let input = arguments.input
            let user = try await accounts.resetPassword(token: input.string("token") ?? "", newPassword: input.string("newPassword") ?? "")
            return ["user": UserValue(record: user, isViewer: false)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "changePassword") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let input = arguments.input
            let user = try await accounts.changePassword(
                viewer: try context.viewer(), currentPassword: input.string("currentPassword") ?? "",
                newPassword: input.string("newPassword") ?? "", clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "updateProfile") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let viewer = try context.viewer()
            let input = arguments.input
            let avatar = try uploadedFile(input.string("avatar"), field: "input.avatar", in: context)
            if avatar != nil, input["removeAvatar"] == .bool(true) {
                throw ServiceError(.badUserInput, "Give either avatar or removeAvatar, not both.", problems: [
                    FieldProblem(field: "input.removeAvatar", reason: .invalidFormat, message: "Give either avatar or removeAvatar, not both.")])
            }
            // Absent: unchanged; null: cleared. Parsed before any field changes, so a zone the
            // database does not know changes nothing.
            var timeZone: TimeZoneName?? = nil
            if input["timeZone"] != nil {
                timeZone = .some(nil)
                if let name = input.string("timeZone") {
                    do throws(FieldProblem) {
                        timeZone = try TimeZoneName(name, field: "input.timeZone")
                    } catch {
                        throw ServiceError.invalid(InputProblems([error]))
                    }
                }
            }
            var user = try await accounts.user(id: viewer.userID)
            if let timeZone {
                user = try await accounts.updateTimeZone(viewer: viewer, to: timeZone)
            }
            if let displayName = input.string("displayName") {
                user = try await accounts.updateDisplayName(viewer: viewer, to: displayName)
            }
            if let avatar {
                user = try await accounts.setAvatar(viewer: viewer, bytes: avatar.bytes, field: "input.avatar")
            } else if input["removeAvatar"] == .bool(true) {
                user = try await accounts.removeAvatar(viewer: viewer)
            }
            guard let user else { throw ServiceError.signedOut }
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
        resolvers.resolve("User", "avatarUrl") { source, _, _, _ in
            (source as? UserValue)?.record.avatarId.map(accounts.avatarURL(id:))
        }
        resolvers.resolveAsync("Mutation", "changeEmail") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let input = arguments.input
            let user = try await accounts.requestEmailChange(
                viewer: try context.viewer(), newEmail: input.string("newEmail") ?? "",
                currentPassword: input.string("currentPassword"), clientAddress: context.clientAddress)
            return ["user": UserValue(record: user, isViewer: true)] as [String: any Sendable]
        }
    }
}

/// The file an `Upload` value names, from the request's files.
/// - Throws: `BAD_USER_INPUT` on `field` when the request has no file of that name (a plain
///   JSON request, or a name the multipart map did not place there).
private func uploadedFile(_ name: String?, field: String, in context: RequestContext) throws -> UploadedFile? {
    guard let name else { return nil }
    guard let file = context.uploads[name] else {
        let message = "Send the file as a part of a multipart request (graphql-multipart-request-spec)."
        throw ServiceError(.badUserInput, message, problems: [FieldProblem(field: field, reason: .required, message: message)])
    }
    return file
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
