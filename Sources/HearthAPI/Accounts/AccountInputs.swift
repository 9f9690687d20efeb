import GraphQL
import HearthDomain
import HearthServices

/// The account mutations' inputs read into the service's typed requests. Readings only: every
/// rule about the values (lengths, formats, which proof an account needs) lives in
/// ``AccountService``.
extension MutationInput {
    /// The proof of recent authentication of a sensitive mutation: `currentPassword` and
    /// `reauthentication` (`ReauthenticationInput`), both optional.
    func reauthenticationProof() throws -> ReauthenticationProof {
        guard case .object(let object)? = fields["reauthentication"] else {
            return ReauthenticationProof(currentPassword: string("currentPassword"))
        }
        let reauthentication = MutationInput(fields: object, field: "reauthentication")
        return ReauthenticationProof(
            currentPassword: string("currentPassword"),
            provider: ProviderCredential(
                provider: try reauthentication.enumValue("provider"), idToken: try reauthentication.requiredString("idToken"),
                nonce: reauthentication.string("nonce")))
    }

    /// The `provider`, `idToken` and `nonce` of `linkSignInProvider`.
    func providerCredential() throws -> ProviderCredential {
        ProviderCredential(provider: try enumValue("provider"), idToken: try requiredString("idToken"), nonce: string("nonce"))
    }

    /// The fields of `updateProfile`; `avatar` names a file of the request (an `Upload`).
    /// - Throws: `BAD_USER_INPUT` on `input.avatar` when the request carries no such file.
    func profileChange(uploads: [String: UploadedFile]) throws -> ProfileChange {
        ProfileChange(
            displayName: string("displayName"), timeZone: change("timeZone"), avatar: try upload("avatar", in: uploads) ?? nil,
            removesAvatar: fields["removeAvatar"] == .bool(true))
    }
}
