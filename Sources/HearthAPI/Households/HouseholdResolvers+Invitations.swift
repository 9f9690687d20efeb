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
        resolvers.resolveAsync("Mutation", "inviteMember") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let input = arguments.input
            let issued = try await households.inviteMember(
                HouseholdService.NewInvitation(
                    householdID: input.string("householdId") ?? "", email: input.string("email") ?? "",
                    role: GraphQLEnum.value(input.string("role")) ?? .member, kind: GraphQLEnum.value(input.string("kind")) ?? .parent,
                    displayName: input.string("displayName")),
                viewer: try context.viewer(), clientAddress: context.clientAddress, clientMutationID: input.string("clientMutationId"))
            return payload(issued, clientMutationID: input.string("clientMutationId"))
        }
        resolvers.resolveAsync("Mutation", "inviteCoParent") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let input = arguments.input
            let issued = try await households.inviteCoParent(
                householdID: input.string("householdId") ?? "", email: input.string("email") ?? "",
                displayName: input.string("displayName"), viewer: try context.viewer(), clientAddress: context.clientAddress,
                clientMutationID: input.string("clientMutationId"))
            return payload(issued, clientMutationID: input.string("clientMutationId"))
        }
        resolvers.resolveAsync("Mutation", "resendInvitation") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let input = arguments.input
            let issued = try await households.resendInvitation(
                id: input.string("invitationId") ?? "", viewer: try context.viewer(), clientAddress: context.clientAddress,
                clientMutationID: input.string("clientMutationId"))
            return payload(issued, clientMutationID: input.string("clientMutationId"))
        }
        resolvers.resolveAsync("Mutation", "revokeInvitation") { _, arguments, context, _ in
            let input = arguments.input
            let id = input.string("invitationId") ?? ""
            let (household, access) = try await households.revokeInvitation(
                id: id, viewer: try RequestContext.of(context).viewer(), clientMutationID: input.string("clientMutationId"))
            return [
                "revokedInvitationId": id, "household": HouseholdValue(record: household, access: access),
                "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
    }

    /// An `InviteMemberPayload`.
    private static func payload(_ issued: HouseholdService.IssuedInvitation, clientMutationID: String?) -> [String: any Sendable] {
        [
            "invitation": InvitationValue(record: issued.invitation, access: issued.access), "inviteLink": issued.link,
            "inviteToken": issued.token, "clientMutationId": clientMutationID,
        ]
    }

    /// The invitee's side: the invitations waiting, the link's page, accept, decline.
    private static func installAnswering(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveAsync("Query", "myInvitations") { _, _, context, _ in
            try await households.myInvitations(viewer: try RequestContext.of(context).viewer()).map(ReceivedInvitationValue.init(record:))
        }
        resolvers.resolveAsync("Query", "invitationPreview") { _, arguments, _, _ in
            ReceivedInvitationValue(record: try await households.invitationPreview(token: arguments.string("token") ?? ""))
        }
        resolvers.resolveAsync("Mutation", "acceptInvitation") { _, arguments, context, _ in
            let (household, member, access) = try await households.acceptInvitation(
                reference(arguments.input), viewer: try RequestContext.of(context).viewer())
            return [
                "household": HouseholdValue(record: household, access: access), "member": MemberValue(record: member, access: access),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "declineInvitation") { _, arguments, context, _ in
            let id = try await households.declineInvitation(reference(arguments.input), viewer: try RequestContext.of(context).viewer())
            return ["declinedInvitationId": id] as [String: any Sendable]
        }
    }

    /// The invitation an `AcceptInvitationInput` or `DeclineInvitationInput` names; `@oneOf`
    /// guarantees exactly one of `token` and `invitationId`.
    private static func reference(_ input: OrderedMap<String, JSON>) -> InvitationReference {
        if let token = input.string("token") { return .token(token) }
        return .id(input.string("invitationId") ?? "")
    }
}
