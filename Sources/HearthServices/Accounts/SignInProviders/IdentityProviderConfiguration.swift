import JOSE

/// What an identity provider's ID tokens must look like to be accepted: the audiences (this
/// deployment's client IDs), issuers, algorithms, clock skew and nonce rule.
///
/// A provider with no client IDs is disabled: its sign-in and linking answer
/// `PROVIDER_DISABLED`.
public struct IdentityProviderConfiguration: Sendable, Hashable {
    /// The provider.
    public var provider: SignInProvider
    /// The OAuth client IDs tokens may be issued to (`aud`): for Google the web, iOS and
    /// Android client IDs; for Apple the app bundle IDs and the Services ID of the web flow.
    public var clientIDs: Set<String>
    /// The accepted `iss` values.
    public var issuers: Set<String>
    /// The accepted signature algorithms (pinned; `alg` in the token header picks nothing else).
    public var algorithms: Set<JWSAlgorithm>
    /// The clock difference tolerated on `exp`, `nbf` and `iat`.
    public var clockSkew: Duration
    /// Whether every token must be bound to a nonce. When false, a nonce is still checked
    /// whenever the client sends one or the token carries one.
    public var requiresNonce: Bool

    /// Creates a configuration.
    public init(
        provider: SignInProvider, clientIDs: Set<String>, issuers: Set<String>, algorithms: Set<JWSAlgorithm> = [.RS256],
        clockSkew: Duration = .seconds(60), requiresNonce: Bool
    ) {
        self.provider = provider
        self.clientIDs = clientIDs
        self.issuers = issuers
        self.algorithms = algorithms
        self.clockSkew = clockSkew
        self.requiresNonce = requiresNonce
    }

    /// Whether sign-in with the provider is on (at least one client ID is configured).
    public var isEnabled: Bool { !clientIDs.isEmpty }

    /// Google: issuers `accounts.google.com` and `https://accounts.google.com` (Google uses
    /// both), RS256, nonce checked when present.
    public static func google(clientIDs: Set<String>) -> IdentityProviderConfiguration {
        IdentityProviderConfiguration(
            provider: .google, clientIDs: clientIDs, issuers: ["accounts.google.com", "https://accounts.google.com"],
            requiresNonce: false)
    }

    /// Apple: issuer `https://appleid.apple.com`, RS256, nonce required.
    public static func apple(clientIDs: Set<String>) -> IdentityProviderConfiguration {
        IdentityProviderConfiguration(provider: .apple, clientIDs: clientIDs, issuers: ["https://appleid.apple.com"], requiresNonce: true)
    }

    /// Google's published key set.
    public static let googleKeySetURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// Apple's published key set.
    public static let appleKeySetURL = "https://appleid.apple.com/auth/keys"
}
