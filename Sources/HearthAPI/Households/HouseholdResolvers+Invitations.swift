import GraphQL
import HearthDomain
import HearthServices

/// Invitations (FR-12, FR-13) and the co-parent invite (FR-ONBOARD-4): the admins' mutations,
/// the invitee's answers and reads, and `Household.invitations`.
///
/// An invitation is bound to the invited address (see ``HouseholdService``'s invitation notes):
/// a user signed in with another address gets `FORBIDDEN` (`INVITATION_FOR_ANOTHER_ADDRESS`)
/// and either asks the admin to invite their account's address or moves their account to the
/// invited address with `changeEmail` before accepting.
extension HouseholdResolvers {
    static func installInvitations(into resolvers: inout Resolvers, households: HouseholdService) {
        installInviting(into: &resolvers, households: households)
        installAnswering(into: &resolvers, households: households)
        resolvers.resolveAsync("Household", "invitations") { source, _, _, _ in
            let household = source as! HouseholdValue
            return try await households.invitations(household.access).map { InvitationValue(record: $0, access: household.access) }
        }
    }

    /// The admins' side: invite, invite a co-parent, resend, revoke.
    private static func installInviting(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveMutation("inviteMember") { input, context in
            let viewer = try context.viewer()
            let issued = try await households.inviteMember(
                HouseholdService.NewInvitation(
                    householdID: try input.requiredString("householdId"), email: try input.requiredString("email"),
                    role: try input.optionalEnumValue("role") ?? .member, kind: try input.optionalEnumValue("kind") ?? .parent,
                    displayName: input.string("displayName")),
                viewer: viewer, clientAddress: context.clientAddress, clientMutationID: input.clientMutationID)
            return payload(issued)
        }
        resolvers.resolveMutation("inviteCoParent") { input, context in
            let viewer = try context.viewer()
            let issued = try await households.inviteCoParent(
                householdID: try input.requiredString("householdId"), email: try input.requiredString("email"),
                displayName: input.string("displayName"), viewer: viewer, clientAddress: context.clientAddress,
                clientMutationID: input.clientMutationID)
            return payload(issued)
        }
        resolvers.resolveMutation("resendInvitation") { input, context in
            let viewer = try context.viewer()
            let issued = try await households.resendInvitation(
                id: try input.requiredString("invitationId"), viewer: viewer, clientAddress: context.clientAddress,
                clientMutationID: input.clientMutationID)
            return payload(issued)
        }
        resolvers.resolveMutation("revokeInvitation") { input, context in
            let viewer = try context.viewer()
            let revocation = try await households.revokeInvitation(
                id: try input.requiredString("invitationId"), viewer: viewer, clientMutationID: input.clientMutationID)
            return [
                "revokedInvitationId": revocation.revokedInvitationID,
                "household": HouseholdValue(record: revocation.household.record, access: revocation.household.access),
            ]
        }
    }

    /// An `InviteMemberPayload` but for its `clientMutationId`.
    private static func payload(_ issued: HouseholdService.IssuedInvitation) -> [String: any Sendable] {
        ["invitation": InvitationValue(record: issued.invitation, access: issued.access), "inviteLink": issued.link, "inviteToken": issued.token]
    }

    /// The invitee's side: the invitations waiting, the link's page, accept, decline.
    private static func installAnswering(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveAsync("Query", "myInvitations") { _, _, context, _ in
            try await households.myInvitations(viewer: try RequestContext.of(context).viewer()).map(ReceivedInvitationValue.init(record:))
        }
        resolvers.resolveAsync("Query", "invitationPreview") { _, arguments, _, _ in
            ReceivedInvitationValue(record: try await households.invitationPreview(token: arguments.string("token") ?? ""))
        }
        resolvers.resolveMutation("acceptInvitation") { input, context in
            let (household, member, access) = try await households.acceptInvitation(
                try reference(input), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["household": HouseholdValue(record: household, access: access), "member": MemberValue(record: member, access: access)]
        }
        resolvers.resolveMutation("declineInvitation") { input, context in
            let declined = try await households.declineInvitation(
                try reference(input), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["declinedInvitationId": declined]
        }
    }

    /// The invitation the `invitation` field (an `InvitationReferenceInput`) of an
    /// `AcceptInvitationInput` or `DeclineInvitationInput` names; `@oneOf` guarantees exactly
    /// one of `token` and `invitationId`.
    private static func reference(_ input: MutationInput) throws -> InvitationReference {
        let invitation = try input.requiredObject("invitation")
        if let token = invitation.string("token") { return .token(token) }
        guard let id = invitation.string("invitationId") else {
            throw MutationInput.problem("invitation", .required, "Give the link's token or the invitation's id.")
        }
        return .id(id)
    }
}
