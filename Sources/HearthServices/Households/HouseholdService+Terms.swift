import FoundationEssentials
import HearthDomain
import HearthStore

/// The server's terms of service as one caller sees them (`Query.terms`).
public struct TermsStatus: Sendable, Hashable {
    /// The version in force.
    public var currentVersion: String
    /// Where its text is published, if configured.
    public var url: String?
    /// The version the caller accepted last; `nil` when signed out or never accepted.
    public var acceptedVersion: String?
    /// When they accepted it.
    public var acceptedAt: Date?

    /// Whether the caller must accept ``currentVersion`` before anything else: signed in and
    /// not (yet) on the current version. Signed-out callers are never asked.
    public var isAcceptanceRequired: Bool
}

/// Where an account stands with the terms, for the API's gate (FR-ONBOARD-2).
public enum TermsStanding: Sendable, Hashable {
    /// The current version is accepted.
    case accepted
    /// An older version is accepted: the re-prompt precedes everything else.
    case outdated
    /// No version was ever accepted: the account is new, in the wizard's first step.
    case neverAccepted
}

extension HouseholdService {
    /// Where `user` stands with the current terms. Pure: the gate calls it on every request
    /// with a cached record.
    public func termsStanding(of user: UserRecord) -> TermsStanding {
        switch user.acceptedTermsVersion {
        case configuration.termsVersion: .accepted
        case nil: .neverAccepted
        default: .outdated
        }
    }

    /// Passes when `user` accepted the current terms, or never accepted any and
    /// `admittingNewAccounts` (the wizard's first step). The terms gate of every entry point:
    /// GraphQL's root fields and the widget routes.
    /// - Throws: `TERMS_ACCEPTANCE_REQUIRED`; `UNAUTHENTICATED` when the account is gone.
    public func requireAcceptedTerms(_ user: UserRecord?, admittingNewAccounts: Bool = false) throws {
        guard let user else { throw ServiceError.signedOut }
        switch termsStanding(of: user) {
        case .accepted: return
        case .neverAccepted where admittingNewAccounts: return
        case .neverAccepted, .outdated: throw ServiceError.termsAcceptanceRequired
        }
    }

    /// The terms and, for a signed-in `viewer`, what they accepted.
    /// - Throws: `UNAUTHENTICATED` when the viewer's account is gone.
    public func terms(viewer: Viewer?) async throws -> TermsStatus {
        guard let viewer else { return termsStatus(of: nil) }
        guard let user = try await accounts.user(id: viewer.userID) else { throw ServiceError.signedOut }
        return termsStatus(of: user)
    }

    /// Accepts the current terms for `viewer` (FR-ONBOARD-2): the acceptance is kept as
    /// evidence in `terms_acceptances`, and the account records the version and when.
    /// Accepting the version already accepted changes nothing. A replay of `clientMutationID`
    /// changes nothing either, and answers the terms as they stand now, even when their version
    /// changed since the first run.
    /// - Parameter version: What the client showed; must be the current version, so a client
    ///   never accepts text it did not display.
    /// - Throws: `BAD_USER_INPUT` (reason `UNKNOWN_VALUE` at `input.version`) for another
    ///   version; `UNAUTHENTICATED` when the account is gone; `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func acceptTerms(version: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> TermsStatus {
        let now = clock.storedNow
        _ = try await mutate("acceptTerms", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            guard version == configuration.termsVersion else {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.version", reason: .unknownValue,
                    message: "The terms changed: read them again with terms and accept version \(configuration.termsVersion).")]))
            }
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            guard user.acceptedTermsVersion != version else { return version }
            try OwnerScope(Owner(viewer), database).execute(
                "INSERT INTO terms_acceptances (user_id, version, accepted_at) VALUES ({owner}, ?, ?) ON CONFLICT DO NOTHING", [version, now])
            try database.execute(
                "UPDATE users SET accepted_terms_version = ?, terms_accepted_at = ? WHERE id = ?", [version, now, user.id])
            return version
        }
        return try await terms(viewer: viewer)
    }

    /// Allows (`true`) or stops (`false`) activation analytics about `viewer`. Allowing again
    /// keeps the first consent's time. A replay of `clientMutationID` changes nothing, so a
    /// queued consent replayed after a later refusal does not undo the refusal.
    /// - Returns: The account as it is now.
    /// - Throws: `UNAUTHENTICATED` when the account is gone; `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func setAnalyticsConsent(_ isConsented: Bool, viewer: Viewer, clientMutationID: String? = nil) async throws -> UserRecord {
        let now = clock.storedNow
        _ = try await mutate("setAnalyticsConsent", by: viewer, replaying: clientMutationID, at: now) { database in
            guard try UserRecord.find(id: viewer.userID, in: database) != nil else { throw ServiceError.signedOut }
            try database.execute(
                """
                UPDATE users SET analytics_consented_at = CASE WHEN ? THEN coalesce(analytics_consented_at, ?) END
                WHERE id = ?
                """,
                [isConsented, now, viewer.userID])
            return isConsented
        }
        guard let user = try await accounts.user(id: viewer.userID) else { throw ServiceError.signedOut }
        return user
    }

    private func termsStatus(of user: UserRecord?) -> TermsStatus {
        TermsStatus(
            currentVersion: configuration.termsVersion, url: configuration.termsURL,
            acceptedVersion: user?.acceptedTermsVersion, acceptedAt: user?.termsAcceptedAt,
            isAcceptanceRequired: user.map { termsStanding(of: $0) != .accepted } ?? false)
    }
}

extension ServiceError {
    /// The caller has not accepted the current terms of service (FR-ONBOARD-2).
    public static let termsAcceptanceRequired = ServiceError(
        .termsAcceptanceRequired,
        "Accept the current terms of service first: read them with `terms`, then call `acceptTerms` with their version.")
}
