import FoundationEssentials

/// Who a verified ID token says the user is.
public struct ProviderIdentity: Sendable, Hashable {
    /// The provider that issued the token.
    public var provider: SignInProvider
    /// `sub`: the provider's stable, unique id of the user (never their email address, which
    /// can change).
    public var subject: String
    /// `email`, when the token has one.
    public var email: String?
    /// Whether the provider says it verified ``email`` (`email_verified` true); false when
    /// there is no email.
    public var isEmailVerified: Bool
    /// `name`, when the token has one (Google does; Apple never puts the name in the token,
    /// the app passes it instead).
    public var name: String?
    /// `iat`: when the provider issued the token; `nil` when the token has none.
    /// Re-authentication asks for a recent one: it shows that the app could get a token for
    /// this identity from the provider just now, which a stolen access token alone cannot. It
    /// is not when the user last typed a password at the provider, which mints fresh tokens
    /// from its own session.
    public var issuedAt: Date?

    /// Creates an identity.
    public init(
        provider: SignInProvider, subject: String, email: String?, isEmailVerified: Bool, name: String?, issuedAt: Date? = nil
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.name = name
        self.issuedAt = issuedAt
    }
}
