/// An external identity provider accounts can sign in with (FR-02c, FR-02d); the raw value
/// is what `provider_identities.provider` stores.
public enum SignInProvider: String, Sendable, Hashable, CaseIterable {
    /// Sign in with Google (OpenID Connect ID tokens from Google Identity Services or the
    /// Google Sign-In SDKs).
    case google
    /// Sign in with Apple (the identity token of `ASAuthorizationAppleIDCredential` or of
    /// Apple's JS/REST flow).
    case apple

    /// The provider's name as people know it, for messages and emails.
    public var displayName: String {
        switch self {
        case .google: "Google"
        case .apple: "Apple"
        }
    }
}

/// A way an account can sign in, as `User.signInMethods` lists them.
public enum SignInMethod: String, Sendable, Hashable, CaseIterable {
    /// Email address and password.
    case password = "PASSWORD"
    /// A linked Google identity.
    case google = "GOOGLE"
    /// A linked Apple identity.
    case apple = "APPLE"

    /// The method of signing in through `provider`.
    public init(_ provider: SignInProvider) {
        switch provider {
        case .google: self = .google
        case .apple: self = .apple
        }
    }
}
