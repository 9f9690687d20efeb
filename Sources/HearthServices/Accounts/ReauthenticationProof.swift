/// What a caller offers as recent authentication for an operation that changes how the account
/// is secured (``AccountService/requireRecentAuthentication(_:of:viewer:clientAddress:)``).
public struct ReauthenticationProof: Sendable, Hashable {
    /// The account's current password (`input.currentPassword`).
    public var currentPassword: String?
    /// A fresh ID token of a provider identity linked to the account (`input.reauthentication`).
    public var provider: ProviderCredential?

    /// Creates a proof; both parts are optional, and nothing at all is a valid offer for a
    /// session that signed in within the re-authentication window.
    public init(currentPassword: String? = nil, provider: ProviderCredential? = nil) {
        self.currentPassword = currentPassword
        self.provider = provider
    }
}
