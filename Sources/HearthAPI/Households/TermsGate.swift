import GraphQL
import HearthServices

/// The terms-of-service gate (FR-ONBOARD-2): a signed-in caller who has not accepted the
/// current terms gets `TERMS_ACCEPTANCE_REQUIRED` from every root field except those that let
/// them read and accept the terms or look after their account and sessions. Someone who never
/// accepted any version (a new account, in the wizard's first step: FR-ONBOARD-1 precedes
/// FR-ONBOARD-2) may also create and read households and edit their profile. Signed-out calls
/// are not gated: the fields that need an account refuse them anyway.
///
/// Installed last, around every root field, so a field added later is gated unless it is
/// listed here. The check reads the signed-in account from the accounts cache (valid until the
/// next commit, so accepting the terms takes effect at once) and reads the database only when
/// the cache cannot answer without waiting. Subscriptions are checked once, when subscribing.
enum TermsGate {
    /// The root fields every signed-in caller may use, by root type: the terms themselves, the
    /// server's liveness (`serverInfo`, `serverEvents`), and the account's security: signing
    /// in, sessions, password, address and sign-in methods, so an account that has not
    /// accepted the terms can still be secured, recovered or signed out. And `syncBatch`: each of
    /// its entries passes this gate as a root field of its own, so a queue written offline that
    /// accepts the terms first (the wizard's steps, FR-ONBOARD-2) goes through in one request.
    static let alwaysAllowed: [String: Set<String>] = [
        "Query": ["terms", "me", "serverInfo", "sessions", "widgetTokens"],
        "Mutation": [
            "syncBatch", "acceptTerms", "register", "login", "signInWithGoogle", "signInWithApple", "refreshSession", "logout",
            "logoutEverywhere", "revokeSession", "changePassword", "confirmEmail", "resendConfirmation", "requestPasswordReset",
            "resetPassword", "changeEmail", "linkSignInProvider", "unlinkSignInProvider", "revokeWidgetToken",
        ],
        "Subscription": ["serverEvents"],
    ]

    /// The root fields of the wizard's first step, which callers who never accepted any terms
    /// version may use as well.
    static let firstStep: [String: Set<String>] = [
        "Query": ["households", "household", "activeHousehold"],
        "Mutation": ["createHousehold", "updateProfile"],
    ]

    /// Wraps every root field of `resolvers` but the allowed ones in the gate. Call it after
    /// every other resolver is attached.
    static func install(into resolvers: inout Resolvers, accounts: AccountService, households: HouseholdService) {
        for typeName in ["Query", "Mutation"] {
            let newAccountFields = firstStep[typeName] ?? []
            resolvers.wrapFields(of: typeName, except: alwaysAllowed[typeName] ?? []) { name, resolver in
                let admitsNewAccounts = newAccountFields.contains(name)
                return { source, arguments, context, info in
                    guard let viewer = RequestContext.of(context).optionalViewer else {
                        return try resolver(source, arguments, context, info)
                    }
                    if let user = try accounts.userWithoutWaiting(id: viewer.userID) {
                        try households.requireAcceptedTerms(user, admittingNewAccounts: admitsNewAccounts)
                        return try resolver(source, arguments, context, info)
                    }
                    return .async {
                        try households.requireAcceptedTerms(await accounts.user(id: viewer.userID), admittingNewAccounts: admitsNewAccounts)
                        switch try resolver(source, arguments, context, info) {
                        case .value(let value): return value
                        case .async(let work): return try await work()
                        }
                    }
                }
            }
        }
        resolvers.wrapSubscriptions(except: alwaysAllowed["Subscription"] ?? []) { _, subscribe in
            { source, arguments, context, info in
                if let viewer = RequestContext.of(context).optionalViewer {
                    try households.requireAcceptedTerms(await accounts.user(id: viewer.userID))
                }
                return try await subscribe(source, arguments, context, info)
            }
        }
    }
}
