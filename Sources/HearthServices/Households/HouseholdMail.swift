import HearthDomain
import HearthStore

/// The emails households send, queued in the mail outbox inside the caller's transaction
/// (an invitation and its email commit together or not at all), written as ``MailTemplate``s.
///
/// It sends through ``AccountMail``, so every email of the server goes through one queue and
/// every link points at the same public base URL.
struct HouseholdMail: Sendable {
    /// The path of invitation links (`/invitation?token=…`).
    static let invitationPath = "/invitation"

    /// The accounts' composer, whose outbox, base URL and product name these emails share.
    let accounts: AccountMail

    /// The composer sending through `accounts`.
    init(accounts: AccountMail) {
        self.accounts = accounts
    }

    private var productName: String { accounts.productName }

    /// What an invitation email says: who invited whom to which household, as what.
    struct Invitation {
        /// The invited address.
        var address: String
        /// The household's name.
        var householdName: String
        /// The inviting admin's display name.
        var inviterName: String
        /// The kind of member the invitee becomes.
        var kind: MemberKind
        /// The role the invitee gets.
        var role: MemberRole
        /// The token of the link.
        var token: LinkToken
        /// How long the link works, in words (`14 days`).
        var validity: String
    }

    /// Invites `invitation.address` to a household (FR-12, FR-ONBOARD-4). The email explains
    /// the address binding: only an account whose confirmed address is this one can accept.
    func invite(_ invitation: Invitation, in database: Database) throws {
        let joining = switch (invitation.kind, invitation.role) {
        case (.coParent, _): "as a co-parent, running the household together with them"
        case (_, .admin): "as an admin"
        default: "as a member"
        }
        try accounts.send(MailTemplate(
            subject: "\(invitation.inviterName) invited you to \(invitation.householdName) on \(productName)",
            greeting: "Hello,",
            paragraphs: [
                "\(invitation.inviterName) invited you to join the household \u{201C}\(invitation.householdName)\u{201D} on \(productName) \(joining).",
                "Accept it while signed in to a \(productName) account that uses this address, \(invitation.address) "
                    + "(create one with it if you have none). If your account uses another address, ask "
                    + "\(invitation.inviterName) to invite that address instead, or change your account's email "
                    + "address to this one first, then open the link again.",
            ],
            action: .init(label: "See the invitation", path: Self.invitationPath, token: invitation.token),
            closing: "The invitation works for \(invitation.validity). If you do not know \(invitation.inviterName), ignore this email."
        ), to: invitation.address, in: database)
    }
}
