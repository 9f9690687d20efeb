import FoundationEssentials
import HearthDomain
import HearthStore

/// A pending invitation as a household's admins see it: the `invitations` row with the
/// member record waiting for the invitee and the admin who sent it.
public struct InvitationRecord: Sendable, Hashable {
    /// The invitation's id.
    public var id: String
    /// The household.
    public var householdID: String
    /// The invited address, as typed (normalised).
    public var email: String
    /// The member record (status `invited`) the invitee takes over on accepting; its kind and
    /// role are what they get.
    public var member: MemberRecord
    /// The inviting admin's member record, while they are an active member.
    public var invitedBy: MemberRecord?
    /// When it was created.
    public var createdAt: Date
    /// When it was last sent.
    public var sentAt: Date
    /// How many times it was sent.
    public var sendCount: Int
    /// When the link stops working.
    public var expiresAt: Date
    /// Whether it was past ``expiresAt`` when read.
    public var isExpired: Bool
}

/// An invitation as its invitee sees it (`myInvitations`, the link's page): which household,
/// who invited, as what, until when.
public struct ReceivedInvitation: Sendable, Hashable {
    /// The invitation's id.
    public var id: String
    /// The household's name.
    public var householdName: String
    /// The household's emoji, if any.
    public var householdEmoji: String?
    /// The inviting admin's display name in the household, while they are an active member.
    public var invitedByName: String?
    /// The invited address.
    public var email: String
    /// The role on joining.
    public var role: MemberRole
    /// The kind of member on joining.
    public var kind: MemberKind
    /// When the link stops working.
    public var expiresAt: Date
    /// Whether it was past ``expiresAt`` when read.
    public var isExpired: Bool
}

/// An `invitations` row as stored.
///
/// Its admins reach it through their household's scope. Its invitee is no member yet, so the
/// invitee's side (by the link's token, by their confirmed address, the invitation as they see
/// it, declining it) reads and writes across households here, and only here, on purpose: the
/// caller has established that the invitee may (they hold the token, or it is addressed to their
/// confirmed address).
struct StoredInvitation: Decodable {
    var id: String
    var householdID: String
    var memberID: String
    var email: String
    var emailKey: String
    var invitedBy: String?
    /// The id of the link's token (``LinkTokens``).
    var tokenID: [UInt8]
    var createdAt: Date
    var sentAt: Date
    var sendCount: Int
    var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case id, email
        case householdID = "household_id"
        case memberID = "member_id"
        case emailKey = "email_key"
        case invitedBy = "invited_by"
        case tokenID = "token_id"
        case createdAt = "created_at"
        case sentAt = "sent_at"
        case sendCount = "send_count"
        case expiresAt = "expires_at"
    }

    /// The columns, in the order ``CodingKeys`` reads them.
    static let columns = "id, household_id, member_id, email, email_key, invited_by, token_id, created_at, sent_at, send_count, expires_at"

    /// The invitation of the link token `token`, of any household; nil when `token` is not an
    /// invitation token made with `links`' key, or its invitation is gone.
    static func find(token: String, links: LinkTokens, in database: Database) throws -> StoredInvitation? {
        guard let id = links.id(of: token, as: .invitation) else { return nil }
        return try database.decodeOne(StoredInvitation.self, "SELECT \(columns) FROM invitations WHERE token_id = ?", [id])
    }

    /// The invitation `id` addressed to `emailKey`, of any household: what its invitee may see.
    static func find(id: String, addressedTo emailKey: String, in database: Database) throws -> StoredInvitation? {
        try database.decodeOne(
            StoredInvitation.self, "SELECT \(columns) FROM invitations WHERE id = ? AND email_key = ?", [id, emailKey])
    }

    /// The invitations addressed to `emailKey`, of any household, newest first: what its invitee may see.
    static func all(addressedTo emailKey: String, in database: Database) throws -> [StoredInvitation] {
        try database.decode(
            StoredInvitation.self, "SELECT \(columns) FROM invitations WHERE email_key = ? ORDER BY created_at DESC, id DESC", [emailKey])
    }

    /// The invitation `id` of the household of `scope`.
    static func find(id: String, _ scope: HouseholdScope) throws -> StoredInvitation? {
        try scope.decodeOne(StoredInvitation.self, "SELECT \(columns) FROM invitations WHERE id = ? AND household_id = {household}", [id])
    }

    /// The pending invitations of the household of `scope`, newest first.
    static func all(_ scope: HouseholdScope) throws -> [StoredInvitation] {
        try scope.decode(
            StoredInvitation.self, "SELECT \(columns) FROM invitations WHERE household_id = {household} ORDER BY created_at DESC, id DESC")
    }

    /// The invitation as its household's admins see it, at `now`, with the inviting admin's member
    /// record while they are an active member.
    func record(_ scope: HouseholdScope, at now: Date) throws -> InvitationRecord {
        let inviter = try invitedBy.flatMap { userID in
            try scope.decodeOne(
                MemberRecord.self,
                "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND user_id = ? AND status = 'active'",
                [userID])
        }
        return InvitationRecord(
            id: id, householdID: householdID, email: email, member: try MemberRecord.find(id: memberID, scope),
            invitedBy: inviter, createdAt: createdAt, sentAt: sentAt, sendCount: sendCount,
            expiresAt: expiresAt, isExpired: now >= expiresAt)
    }

    /// The invitation as its invitee sees it, at `now`. Reads across households on purpose:
    /// the invitee is not a member yet; the caller has established that they may see it (they
    /// hold its token, or it is addressed to their confirmed address).
    func received(at now: Date, in database: Database) throws -> ReceivedInvitation {
        struct Joined: Decodable {
            var name: String
            var emoji: String?
            var kind: MemberKind
            var role: MemberRole
            var inviterName: String?

            enum CodingKeys: String, CodingKey {
                case name, emoji, kind, role
                case inviterName = "inviter_name"
            }
        }
        guard let joined = try database.decodeOne(
            Joined.self,
            """
            SELECT h.name, h.emoji, m.kind, m.role, inviter.display_name AS inviter_name FROM invitations i
            JOIN households h ON h.id = i.household_id JOIN members m ON m.id = i.member_id
            LEFT JOIN members inviter ON inviter.household_id = i.household_id AND inviter.user_id = i.invited_by AND inviter.status = 'active'
            WHERE i.id = ?
            """, [id])
        else { throw ServiceError.invitationNotFound }
        return ReceivedInvitation(
            id: id, householdName: joined.name, householdEmoji: joined.emoji, invitedByName: joined.inviterName,
            email: email, role: joined.role, kind: joined.kind, expiresAt: expiresAt, isExpired: now >= expiresAt)
    }

    /// Declines the invitation for its invitee: its placeholder member record goes, and the
    /// invitation with it (the foreign key's cascade).
    func decline(in database: Database) throws {
        try database.execute("DELETE FROM members WHERE id = ? AND household_id = ? AND status = 'invited'", [memberID, householdID])
    }
}

extension ServiceError {
    /// An invitation that does not exist, or that the caller may not see (the same answer).
    public static let invitationNotFound = ServiceError(.notFound, "No such invitation.")
    /// An invitation past its expiry.
    public static let invitationExpired = ServiceError(
        .badUserInput, reason: .invitationExpired, "This invitation has expired. Ask the household's admin to send it again.")
    /// An invitation addressed to another address than the signed-in account's.
    public static let invitationForAnotherAddress = ServiceError(
        .forbidden, reason: .invitationForAnotherAddress,
        "This invitation was sent to another email address. Sign in with the account that uses it, ask the admin to "
            + "invite your account's address, or change your account's email address to the invited one first.")
}
