import FoundationEssentials
import HearthDomain
import HearthStore

/// Who may create an account on this server (`hearth serve --registration`). Existing accounts
/// sign in whatever the policy; it governs only `register` and the first Google or Apple
/// sign-in, which creates an account.
public enum RegistrationPolicy: String, Sendable, CaseIterable {
    /// Anyone may register (the default).
    case open = "OPEN"
    /// Only someone holding a pending household invitation addressed to the new account's
    /// address: a family server that admits the people its admins invite. While the server has
    /// no account at all, the first one is admitted without, so someone can create the first
    /// household and invite the others.
    case inviteOnly = "INVITE_ONLY"
    /// Nobody: the accounts that exist are all there will be.
    case closed = "CLOSED"

    /// The flag's word for the policy: `open`, `invite-only`, `closed`.
    public var flagValue: String {
        switch self {
        case .open: "open"
        case .inviteOnly: "invite-only"
        case .closed: "closed"
        }
    }
}

extension AccountService {
    /// Refuses a new account for `emailKey` unless the registration policy admits it, inside the
    /// transaction that creates it (an invitation revoked meanwhile admits nobody).
    ///
    /// - Parameters:
    ///   - invitationToken: The token of a household invitation link the caller holds; needed
    ///     under ``RegistrationPolicy/inviteOnly``, ignored otherwise.
    ///   - field: The input path of the token, for the error.
    /// - Throws: ``ServiceError``: `FORBIDDEN` with reason `REGISTRATION_CLOSED` (policy
    ///   closed), `INVITATION_REQUIRED` (invite-only, no token) or `INVITATION_FOR_ANOTHER_ADDRESS`
    ///   (the invitation was sent to another address); `BAD_USER_INPUT` with reason
    ///   `LINK_INVALID` (unknown, spent or revoked token) or `INVITATION_EXPIRED`.
    func admitNewAccount(emailKey: String, invitationToken: String?, field: String, at now: Date, in database: Database) throws {
        switch configuration.registration {
        case .open:
            return
        case .closed:
            throw ServiceError.registrationClosed
        case .inviteOnly:
            if try database.scalar(Int.self, "SELECT 1 FROM users LIMIT 1") == nil { return }
            guard let token = invitationToken, !token.isEmpty else {
                throw ServiceError(
                    .forbidden, reason: .invitationRequired,
                    "This server admits new accounts by invitation only: open the invitation link a household's admin sent you.",
                    problems: [FieldProblem(field: field, reason: .required, message: "An invitation is required to create an account here.")])
            }
            guard let invitation = try StoredInvitation.find(token: token, links: mail.links, in: database) else {
                var error = ServiceError.linkInvalid
                error.problems = [FieldProblem(field: field, reason: .unknownValue, message: error.message)]
                throw error
            }
            guard now < invitation.expiresAt else { throw ServiceError.invitationExpired }
            guard invitation.emailKey == emailKey else {
                throw ServiceError(
                    .forbidden, reason: .invitationForAnotherAddress,
                    "This invitation was sent to another email address: create the account with the invited address.")
            }
        }
    }
}

extension ServiceError {
    /// A new account refused because the server admits none (`--registration closed`).
    public static let registrationClosed = ServiceError(
        .forbidden, reason: .registrationClosed, "This server does not accept new accounts. Ask its administrator.")
}
