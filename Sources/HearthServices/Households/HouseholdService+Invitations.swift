import FoundationEssentials
import HearthDomain
import HearthStore

/// How an invitee names the invitation they answer.
public enum InvitationReference: Sendable, Hashable {
    /// The token of the emailed (or shared) link.
    case token(String)
    /// The invitation's id, as `myInvitations` lists it.
    case id(String)
}

/// Invitations (FR-12, FR-13) and the co-parent invite (FR-ONBOARD-4).
///
/// An invitation is two rows: a `members` row with status `invited` and no account (what the
/// roster shows, with the kind and role the invitee gets) and an `invitations` row holding the
/// id of the link's single-use token (``LinkTokens``: the token itself needs the link key,
/// which the database does not hold) and the address the invitation is bound to.
/// Accepting links the member row to the invitee's account and deletes the invitation row (or,
/// for someone who left the household before, revives their departed record and deletes the
/// placeholder with its invitation); declining and revoking delete the member row, which takes
/// the invitation with it.
///
/// **Bound to the address.** Only an account whose *confirmed* email address is the invited
/// one can accept or decline: holding the link is not enough, so a forwarded or leaked link
/// lets nobody else in. Someone whose account uses another address has two ways in: the admin
/// invites the address their account uses (revoking the first invitation), or they change
/// their account's address to the invited one (`changeEmail`, confirmed by the link sent
/// there) and then accept. The email and the `FORBIDDEN` error (reason
/// `INVITATION_FOR_ANOTHER_ADDRESS`) both say so.
extension HouseholdService {
    /// The roster name of an invitee whose inviter gave none (the address is not shown to members).
    public static let unnamedInviteeName = "Invited member"

    /// What ``inviteMember(_:viewer:clientAddress:clientMutationID:)`` is given.
    public struct NewInvitation: Sendable {
        /// The household.
        public var householdID: String
        /// The invitee's address as typed.
        public var email: String
        /// The role on joining.
        public var role: MemberRole
        /// `parent` or `coParent`: invitations are for adults; children and shadows are added directly.
        public var kind: MemberKind
        /// How the roster shows the invitee until they join; ``HouseholdService/unnamedInviteeName`` when absent.
        public var displayName: String?

        /// Creates the request.
        public init(householdID: String, email: String, role: MemberRole = .member, kind: MemberKind = .parent, displayName: String? = nil) {
            self.householdID = householdID
            self.email = email
            self.role = role
            self.kind = kind
            self.displayName = displayName
        }
    }

    /// An invitation just created or sent again, with its link.
    public struct IssuedInvitation: Sendable {
        /// The invitation.
        public var invitation: InvitationRecord
        /// The admin's access to its household, under which it was read.
        public var access: HouseholdAccess
        /// The link's single-use token: shown only here (derived from the stored id with the link key).
        public var token: String
        /// The link (`<public base URL>/invitation?token=<token>`), also emailed, for the admin to share.
        public var link: String
    }

    /// What a first run stores for a replay of an invite or a resend (``MutationReplay``): which
    /// invitation, never its token. A replay derives the link again from the invitation's row
    /// with the link key, so the admin of an offline queue still gets it: the first run's link,
    /// or the one that works now if the invitation was sent again since. (Records written
    /// before tokens were derived hold a `token` too, which decoding ignores; the migration
    /// that introduced link tokens made those tokens stop working.)
    private struct Issued: Codable {
        var householdID: String
        var invitationID: String
    }

    /// The emails of households, through the accounts' outbox.
    private var mail: HouseholdMail { HouseholdMail(accounts: accounts.mail) }

    // MARK: - Inviting (FR-12, FR-ONBOARD-4)

    /// Invites `request.email` to a household (FR-12): creates an invited member record and its
    /// invitation, valid for ``HouseholdsConfiguration/invitationLifetime``, emails the link and
    /// returns it. Admins only; the admin's own address must be confirmed. Records
    /// `member.invited` and the `member_invited` analytics event (`kind`: `parent` or `coParent`).
    /// - Parameter clientAddress: The caller's address, for the email rate limit.
    /// - Throws: `BAD_USER_INPUT` (every field problem: the address, a kind other than parent or
    ///   co-parent, a display name over 80 characters); `NOT_FOUND` / `FORBIDDEN` (see
    ///   ``HouseholdAccess``); `EMAIL_NOT_CONFIRMED`; `CONFLICT` with reason `ALREADY_MEMBER` when
    ///   an active member's account uses the address, `CONFLICT` when an invitation to it is
    ///   pending (resend it instead) or at the member or pending-invitation limit;
    ///   `RATE_LIMITED` when the address was sent too many emails.
    public func inviteMember(
        _ request: NewInvitation, viewer: Viewer, clientAddress: String, clientMutationID: String? = nil
    ) async throws -> IssuedInvitation {
        try await invite(request, viewer: viewer, clientAddress: clientAddress, clientMutationID: clientMutationID, mutation: "inviteMember")
    }

    /// Invites a co-parent (FR-ONBOARD-4): ``inviteMember(_:viewer:clientAddress:clientMutationID:)``
    /// with kind `coParent` and role `admin`, with the same rules and errors.
    public func inviteCoParent(
        householdID: String, email: String, displayName: String? = nil, viewer: Viewer, clientAddress: String,
        clientMutationID: String? = nil
    ) async throws -> IssuedInvitation {
        try await invite(
            NewInvitation(householdID: householdID, email: email, role: .admin, kind: .coParent, displayName: displayName),
            viewer: viewer, clientAddress: clientAddress, clientMutationID: clientMutationID, mutation: "inviteCoParent")
    }

    private func invite(
        _ request: NewInvitation, viewer: Viewer, clientAddress: String, clientMutationID: String?, mutation: String
    ) async throws -> IssuedInvitation {
        var problems = ProblemCollector()
        let email = problems.check { () throws(FieldProblem) in try EmailAddress(request.email, field: "input.email") }
        if !request.kind.isAdult {
            problems.add(FieldProblem(
                field: "input.kind", reason: .notAllowed,
                message: "Invite a parent or a co-parent; add children and shadows to the household directly."))
        }
        let displayName = problems.check { () throws(FieldProblem) in
            try DisplayText.optionalLabel(request.displayName, field: "input.displayName")
        } ?? nil
        try problems.throwIfAny()
        guard let email else { preconditionFailure("an address that failed its check was recorded as a problem") }
        // Every member sees the roster, while the address is for admins only: without a name
        // given, the roster shows a neutral one rather than part of the address.
        let rosterName = displayName ?? Self.unnamedInviteeName
        let now = clock.storedNow
        let issued = try await mutate(mutation, by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: request.householdID, requiring: .admin, in: database)
            _ = try requireConfirmedEmail(viewer, in: database)
            let household = try HouseholdRecord.find(scope)
            try ensureInvitable(email, to: household, scope)
            let memberID = GlobalID.make(.member, now: now).rawValue
            let invitationID = GlobalID.make(.invitation, now: now).rawValue
            let token = links.issue(.invitation)
            try scope.execute(
                """
                INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
                VALUES (?, {household}, NULL, ?, ?, 'invited', ?, ?, ?)
                """,
                [memberID, request.kind.rawValue, request.role.rawValue, rosterName, now, now])
            try scope.execute(
                """
                INSERT INTO invitations (id, household_id, member_id, email, email_key, token_id, invited_by, created_at, sent_at, expires_at)
                VALUES (?, {household}, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [invitationID, memberID, email.value, email.key, token.id, viewer.userID, now, now,
                 now.adding(configuration.invitationLifetime)])
            try send(token, to: email.value, kind: request.kind, role: request.role, household: household, scope.access,
                     clientAddress: clientAddress, in: database)
            try record(.memberInvited, HouseholdChange(householdID: household.id, memberID: memberID), in: database)
            try analytics.record(
                .memberInvited, actorID: viewer.userID, householdID: household.id,
                properties: ["kind": request.kind == .coParent ? "coParent" : "parent"], at: now, in: database)
            return Issued(householdID: household.id, invitationID: invitationID)
        }
        return try await issuedInvitation(issued, viewer: viewer)
    }

    /// Refuses to invite `email` to `household` when its account is already an active member
    /// (one who left may be invited back), an invitation to it is pending, or the household is
    /// at a limit.
    private func ensureInvitable(_ email: EmailAddress, to household: HouseholdRecord, _ scope: HouseholdScope) throws {
        let isMember = try scope.scalar(
            Int.self,
            """
            SELECT count(*) FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.household_id = {household} AND m.status = 'active' AND u.email_key = ?
            """,
            [email.key]) ?? 0 > 0
        if isMember {
            let message = "\(email.value) is already a member of \(household.name)."
            throw ServiceError(
                .conflict, reason: .alreadyMember, message, problems: [FieldProblem(field: "input.email", reason: .taken, message: message)])
        }
        let isPending = try scope.scalar(
            Int.self, "SELECT count(*) FROM invitations WHERE household_id = {household} AND email_key = ?", [email.key]) ?? 0 > 0
        if isPending {
            throw ServiceError(
                .conflict, reason: .alreadyInvited, "\(email.value) was already invited to \(household.name). Send the invitation again instead (resendInvitation).")
        }
        let members = try MemberRecord.countPresent(scope)
        if members >= configuration.maximumMembersPerHousehold {
            throw ServiceError(
                .conflict, reason: .limitReached, "\(household.name) has \(members) members, invitations included, the most allowed. Remove someone first.")
        }
        let pending = try scope.scalar(Int.self, "SELECT count(*) FROM invitations WHERE household_id = {household}") ?? 0
        if pending >= configuration.maximumPendingInvitations {
            throw ServiceError(
                .conflict, reason: .limitReached, "\(household.name) has \(pending) invitations waiting for an answer, the most allowed. Withdraw one first.")
        }
    }

    /// Emails the link with `token` to `address`, counted against the address's email rate limit.
    private func send(
        _ token: LinkToken, to address: String, kind: MemberKind, role: MemberRole, household: HouseholdRecord,
        _ access: HouseholdAccess, clientAddress: String, in database: Database
    ) throws {
        try accounts.throttle.beginMailRequest(recipient: address.lowercased(), address: clientAddress)
        let inviter = access.member
        try mail.invite(
            HouseholdMail.Invitation(
                address: address, householdName: household.name, inviterName: inviter.displayName, kind: kind, role: role,
                token: token, validity: Self.describe(configuration.invitationLifetime)),
            in: database)
    }

    /// Makes and checks invitation tokens: the accounts' link key.
    private var links: LinkTokens { accounts.mail.links }

    /// `14 days`, `12 hours`: how long a link works, for the email.
    private static func describe(_ lifetime: Duration) -> String {
        let hours = Int(lifetime.components.seconds / 3600)
        if hours >= 48 { return "\(hours / 24) days" }
        return hours == 1 ? "1 hour" : "\(max(hours, 1)) hours"
    }

    /// The invitation `issued` names, as its household's admin `viewer` sees it now, with its
    /// link, derived from the stored token id.
    private func issuedInvitation(_ issued: Issued, viewer: Viewer) async throws -> IssuedInvitation {
        let now = clock.storedNow
        let (invitation, access, tokenID) = try await pool.readPreferringCallingThread { database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: issued.householdID, requiring: .admin, in: database)
            guard let stored = try StoredInvitation.find(id: issued.invitationID, scope) else {
                throw ServiceError.invitationNotFound
            }
            return (try stored.record(scope, at: now), scope.access, stored.tokenID)
        }
        let token = links.token(.invitation, id: tokenID).value
        return IssuedInvitation(
            invitation: invitation, access: access, token: token,
            link: accounts.mail.baseURL.url(for: "\(HouseholdMail.invitationPath)?token=\(token)"))
    }

    // MARK: - Managing (admins)

    /// Sends invitation `id` again (FR-12): a new token (the old link stops working), a new
    /// expiry a full lifetime from now, and another email. Records `member.invited` again, so
    /// other admins' devices see the new expiry.
    /// - Throws: `NOT_FOUND` for an invitation of a household the viewer is not in (or none);
    ///   `FORBIDDEN` for members who are not admins; `EMAIL_NOT_CONFIRMED`; `RATE_LIMITED`.
    public func resendInvitation(
        id: String, viewer: Viewer, clientAddress: String, clientMutationID: String? = nil
    ) async throws -> IssuedInvitation {
        let now = clock.storedNow
        let issued = try await mutate("resendInvitation", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let (scope, stored) = try managedInvitation(id: id, viewer: viewer, in: database)
            _ = try requireConfirmedEmail(viewer, in: database)
            let member = try MemberRecord.find(id: stored.memberID, scope)
            let token = links.issue(.invitation)
            try scope.execute(
                """
                UPDATE invitations SET token_id = ?, sent_at = ?, send_count = send_count + 1, expires_at = ?
                WHERE id = ? AND household_id = {household}
                """,
                [token.id, now, now.adding(configuration.invitationLifetime), stored.id])
            try send(token, to: stored.email, kind: member.kind, role: member.role, household: try HouseholdRecord.find(scope),
                     scope.access, clientAddress: clientAddress, in: database)
            try record(.memberInvited, HouseholdChange(householdID: stored.householdID, memberID: member.id), in: database)
            return Issued(householdID: stored.householdID, invitationID: stored.id)
        }
        return try await issuedInvitation(issued, viewer: viewer)
    }

    /// The result of ``revokeInvitation(id:viewer:clientMutationID:)``.
    public struct Revocation: Sendable {
        /// The withdrawn invitation's id (on a replay, the first run's).
        public var revokedInvitationID: String
        /// The household, as the viewer sees it after the change.
        public var household: AccessibleHousehold
    }

    /// Withdraws invitation `id`: its link stops working and the invited member record goes.
    /// Records `member.removed`.
    /// - Throws: `NOT_FOUND` / `FORBIDDEN` as ``resendInvitation(id:viewer:clientAddress:clientMutationID:)``.
    public func revokeInvitation(
        id: String, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> Revocation {
        let now = clock.storedNow
        let revoked = try await mutate("revokeInvitation", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let (scope, stored) = try managedInvitation(id: id, viewer: viewer, in: database)
            try scope.execute("DELETE FROM members WHERE id = ? AND household_id = {household}", [stored.memberID])
            try record(.memberRemoved, HouseholdChange(householdID: stored.householdID, memberID: stored.memberID), in: database)
            return RevokedInvitation(householdID: stored.householdID, invitationID: stored.id)
        }
        return Revocation(revokedInvitationID: revoked.invitationID, household: try await household(id: revoked.householdID, viewer: viewer))
    }

    /// What a revocation stores for a replay (``MutationReplay``).
    private struct RevokedInvitation: Codable {
        var householdID: String
        var invitationID: String
    }

    /// Invitation `id` when `viewer` is an admin of its household.
    private func managedInvitation(id: String, viewer: Viewer, in database: Database) throws -> (HouseholdScope, StoredInvitation) {
        let scope = try HouseholdScope.check(
            viewer: viewer, owning: .invitations, id: id, requiring: .admin, notFound: .invitationNotFound, in: database)
        guard let stored = try StoredInvitation.find(id: id, scope) else { throw ServiceError.invitationNotFound }
        return (scope, stored)
    }

    /// The pending invitations of the household `access` grants, newest first; empty for
    /// members who are not admins (the addresses are the admins' business).
    public func invitations(_ access: HouseholdAccess) async throws -> [InvitationRecord] {
        guard access.isAdmin else { return [] }
        let now = clock.storedNow
        return try await pool.readPreferringCallingThread { database in
            let scope = HouseholdScope(access, database)
            return try StoredInvitation.all(scope).map { try $0.record(scope, at: now) }
        }
    }

    // MARK: - Answering (FR-13)

    /// Accepts an invitation (FR-13): the viewer joins its household with the invited kind and
    /// role, under their account's display name; the invitation is spent. Someone who left the
    /// household (or was removed) gets their departed member record back, with the same id, so
    /// their history reattaches; the invitation's placeholder record goes (`member.removed`). The
    /// household becomes their active one when they had none. Records `member.joined`.
    /// A replay of a `clientMutationID` returns the household and membership the first run
    /// joined, as they are now, where the spent token alone would answer `LINK_INVALID`.
    /// - Throws: `BAD_USER_INPUT` with reason `LINK_INVALID` for an unknown, spent or revoked
    ///   token, `NOT_FOUND` for an id that is not an invitation to the viewer's address;
    ///   `EMAIL_NOT_CONFIRMED`; `FORBIDDEN` with reason `INVITATION_FOR_ANOTHER_ADDRESS` when the
    ///   token's invitation was sent to another address (see the type's notes);
    ///   `BAD_USER_INPUT` with reason `INVITATION_EXPIRED`; `CONFLICT` with reason
    ///   `ALREADY_MEMBER` when the viewer is a member already (the invitation stays: decline
    ///   it); `CONFLICT` at the households-per-user limit; `CONFLICT` for a reused
    ///   `clientMutationID`.
    public func acceptInvitation(
        _ reference: InvitationReference, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> JoinedHousehold {
        let now = clock.storedNow
        let joined = try await mutate("acceptInvitation", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let (user, invitation) = try answerable(reference, viewer: viewer, in: database)
            guard now < invitation.expiresAt else { throw ServiceError.invitationExpired }
            let owner = OwnerScope(Owner(viewer), database)
            if let name = try owner.scalar(
                String.self,
                """
                SELECT h.name FROM members m JOIN households h ON h.id = m.household_id
                WHERE m.household_id = ? AND m.user_id = {owner} AND m.status = 'active'
                """,
                [invitation.householdID]) {
                throw ServiceError(
                    .conflict, reason: .alreadyMember,
                    "You are already a member of \(name). The invitation stays until you decline it or an admin withdraws it.")
            }
            try ensureRoomForAnotherHousehold(owner)
            let memberID = try join(invitation, as: user, viewer, at: now, in: database)
            try ActiveHousehold.activateIfNone(householdID: invitation.householdID, at: now, owner)
            try record(.memberJoined, HouseholdChange(householdID: invitation.householdID, memberID: memberID, userID: user.id), in: database)
            return MemberReference(householdID: invitation.householdID, memberID: memberID)
        }
        return try await joinedHousehold(joined, viewer: viewer)
    }

    /// Makes `viewer` (whose account is `user`) an active member of `invitation`'s household as it
    /// offers, inside the caller's transaction, and spends the invitation; returns their member
    /// id: the one of their departed record when they had left before (revived, so history
    /// reattaches, and the invitation's placeholder goes with the invitation), else the
    /// placeholder's, now theirs.
    private func join(_ invitation: StoredInvitation, as user: UserRecord, _ viewer: Viewer, at now: Date, in database: Database) throws -> String {
        let owner = OwnerScope(Owner(viewer), database)
        let departed = try owner.scalar(
            String.self, "SELECT id FROM members WHERE household_id = ? AND user_id = {owner} AND status = 'departed'",
            [invitation.householdID])
        if let departed {
            let offered = try invitation.received(at: now, in: database)
            try owner.execute(
                """
                UPDATE members SET kind = ?, role = ?, status = 'active', display_name = ?, joined_at = ?, updated_at = ?, departed_at = NULL
                WHERE id = ? AND user_id = {owner} AND status = 'departed'
                """,
                [offered.kind.rawValue, offered.role.rawValue, user.displayName, now, now, departed])
        } else {
            // The invited placeholder becomes the owner's own record.
            try owner.execute(
                """
                UPDATE members SET user_id = {owner}, status = 'active', display_name = ?, joined_at = ?, updated_at = ?
                WHERE id = ? AND household_id = ? AND status = 'invited'
                """,
                [user.displayName, now, now, invitation.memberID, invitation.householdID])
        }
        // A member now: the rest goes through their access.
        let scope = try HouseholdScope.check(viewer: viewer, householdID: invitation.householdID, in: database)
        if departed != nil {
            try scope.execute("DELETE FROM members WHERE id = ? AND household_id = {household} AND status = 'invited'", [invitation.memberID])
            try record(.memberRemoved, HouseholdChange(householdID: invitation.householdID, memberID: invitation.memberID), in: database)
        } else {
            try scope.execute("DELETE FROM invitations WHERE id = ? AND household_id = {household}", [invitation.id])
        }
        return departed ?? invitation.memberID
    }

    /// Declines an invitation (FR-13): it and its invited member record are removed, expired or
    /// not. Records `member.removed`. Identification and the address rule are those of
    /// ``acceptInvitation(_:viewer:clientMutationID:)``; a replay of a `clientMutationID` returns
    /// the id the first run declined.
    /// - Returns: The declined invitation's id.
    public func declineInvitation(_ reference: InvitationReference, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await mutate("declineInvitation", by: viewer, replaying: clientMutationID, at: clock.storedNow) { [self] database in
            let (_, invitation) = try answerable(reference, viewer: viewer, in: database)
            try invitation.decline(in: database)
            try record(.memberRemoved, HouseholdChange(householdID: invitation.householdID, memberID: invitation.memberID), in: database)
            return invitation.id
        }
    }

    /// The invitation `reference` names, when `viewer` may answer it: their address is
    /// confirmed and is the invited one.
    private func answerable(
        _ reference: InvitationReference, viewer: Viewer, in database: Database
    ) throws -> (UserRecord, StoredInvitation) {
        switch reference {
        case .token(let token):
            guard let invitation = try StoredInvitation.find(token: token, links: links, in: database) else {
                throw ServiceError.linkInvalid
            }
            let user = try requireConfirmedEmail(viewer, in: database)
            guard invitation.emailKey == user.email.lowercased() else { throw ServiceError.invitationForAnotherAddress }
            return (user, invitation)
        case .id(let id):
            // By id the invitation must be addressed to the viewer: any other id, of an
            // invitation or not, is NOT_FOUND, so ids reveal nothing.
            guard GlobalID.mayName(.invitation, id) else { throw ServiceError.invitationNotFound }
            let user = try requireConfirmedEmail(viewer, in: database)
            guard let invitation = try StoredInvitation.find(id: id, addressedTo: user.email.lowercased(), in: database) else {
                throw ServiceError.invitationNotFound
            }
            return (user, invitation)
        }
    }

    /// The invitations sent to the viewer's confirmed address, newest first, expired ones
    /// included; none while the address is not confirmed (it may not be theirs).
    public func myInvitations(viewer: Viewer) async throws -> [ReceivedInvitation] {
        let now = clock.storedNow
        return try await pool.readPreferringCallingThread { database in
            guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
            guard user.isEmailConfirmed else { return [] }
            return try StoredInvitation.all(addressedTo: user.email.lowercased(), in: database).map { try $0.received(at: now, in: database) }
        }
    }

    /// What the link with `token` leads to, for the page it opens; callable signed out (the
    /// token is the secret). An expired invitation is returned with `isExpired`.
    /// - Throws: `BAD_USER_INPUT` with reason `LINK_INVALID` for an unknown, spent or revoked token.
    public func invitationPreview(token: String) async throws -> ReceivedInvitation {
        let now = clock.storedNow
        let links = links
        return try await pool.readPreferringCallingThread { database in
            guard let invitation = try StoredInvitation.find(token: token, links: links, in: database) else {
                throw ServiceError.linkInvalid
            }
            return try invitation.received(at: now, in: database)
        }
    }
}
