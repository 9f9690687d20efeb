/// A fresh ID token from Google or Apple: an identity to link, or proof of who the caller is.
public struct ProviderCredential: Sendable, Hashable {
    /// The provider that issued the token.
    public var provider: SignInProvider
    /// The ID token (a JWT).
    public var idToken: String
    /// The raw nonce the token is bound to (its `nonce` claim holds the SHA-256 of it).
    public var nonce: String?

    /// Creates a credential.
    public init(provider: SignInProvider, idToken: String, nonce: String?) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
    }
}
