import FoundationEssentials
import HearthStore

/// The emailed links a web page opens: what the page shows before anything is spent.
public enum EmailLink: Sendable, Hashable {
    /// `/confirm-email?token=…`: a new account's address, or the new address of an email change.
    case confirmAddress
    /// `/reset-password?token=…`: choosing a new password.
    case resetPassword

    /// The token purposes the link's page accepts (what ``AccountService/confirmEmail(token:)``
    /// and ``AccountService/resetPassword(token:newPassword:)`` spend).
    var purposes: Set<EmailTokenPurpose> {
        switch self {
        case .confirmAddress: [.confirmEmail, .changeEmail]
        case .resetPassword: [.resetPassword]
        }
    }
}

/// What became of an emailed link's token.
public enum EmailLinkState: Sendable, Hashable {
    /// Unspent and unexpired: the page offers its form.
    case usable
    /// Spent, or replaced by a newer link of the same kind (which retires the older ones).
    case used
    /// Past its lifetime, unspent.
    case expired
    /// No such token for this kind of link (mistyped, cut short, or of another kind).
    case unknown
}

extension AccountService {
    /// The state of the emailed link with `token`, without spending it: what its page shows
    /// before its button is pressed. Opening a link changes nothing, because mail scanners
    /// fetch the links in messages before their reader does. Callable signed out (the token is
    /// the secret); a holder of the token learns nothing but whether it still works.
    public func emailLinkState(token: String, for link: EmailLink) async throws -> EmailLinkState {
        let now = clock.storedNow
        let stored = try await pool.read { [self] database in
            try storedEmailToken(token, in: database)
        }
        guard let stored, link.purposes.contains(stored.purpose) else { return .unknown }
        if stored.usedAt != nil { return .used }
        return now < stored.expiresAt ? .usable : .expired
    }
}
