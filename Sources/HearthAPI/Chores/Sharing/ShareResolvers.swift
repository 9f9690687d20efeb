import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of sharing personal chores (FR-40 – FR-42) over ``ChoreService``'s sharing:
/// `shareChores`, `acceptShare`, `declineShare`, `revokeShare`, the share lists, the `ChoreShare`
/// fields, `Chore.instances` (how a recipient follows a chore's progress) and the
/// `sharedChoreEvents` subscription (``SharedChoreEvents``).
enum ShareResolvers {
    static func install(into resolvers: inout Resolvers, services: InstanceServices) {
        let chores = services.chores
        installMutations(into: &resolvers, chores: chores)
        let lists: [(String, String, ChoreService.ShareList)] = [
            ("Query", "myChoreShares", .made), ("Query", "sharedWithMe", .received), ("Query", "pendingChoreShares", .pending),
        ]
        for (type, field, list) in lists {
            resolvers.resolveAsync(type, field) { _, arguments, context, _ in
                let viewer = try RequestContext.of(context).viewer()
                let page = try await chores.shares(list, viewer: viewer, first: arguments.int("first"), after: arguments.string("after"))
                return InstanceResolvers.connection(
                    page.edges.map(\.cursor), page.edges.map { ChoreShareValue(record: $0.node, viewer: viewer) }, page)
            }
        }
        installShareFields(into: &resolvers, chores: chores)
        resolvers.resolveAsync("Chore", "instances") { source, arguments, _, _ in
            let chore = source as! ChoreValue
            let page = try await services.instances.instances(
                ofChore: chore.record, access: chore.batch.access, first: arguments.int("first"), after: arguments.string("after"))
            return InstanceResolvers.connection(page.edges.map(\.cursor), ChoreInstanceValue.values(page.edges.map(\.node), services: services), page)
        }
        SharedChoreEvents.install(into: &resolvers, services: services)
    }

    private static func installMutations(into resolvers: inout Resolvers, chores: ChoreService) {
        resolvers.resolveMutation("shareChores") { input, context in
            let viewer = try context.viewer()
            let share = try await chores.shareChores(
                NewChoreShare(selection: try selection(input), recipient: try recipient(input)), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["share": ChoreShareValue(record: share, viewer: viewer)]
        }
        resolvers.resolveMutation("acceptShare") { input, context in
            let viewer = try context.viewer()
            let share = try await chores.acceptShare(id: try input.requiredString("shareId"), viewer: viewer, clientMutationID: input.clientMutationID)
            return ["share": ChoreShareValue(record: share, viewer: viewer)]
        }
        resolvers.resolveMutation("declineShare") { input, context in
            ["declinedShareId": try await chores.declineShare(
                id: try input.requiredString("shareId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
        resolvers.resolveMutation("revokeShare") { input, context in
            ["revokedShareId": try await chores.revokeShare(
                id: try input.requiredString("shareId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
    }

    /// `input.selection` (`@oneOf`: `choreIds` or `tagId`).
    private static func selection(_ input: MutationInput) throws -> NewChoreShare.Selection {
        let selection = MutationInput(fields: try input.requiredObject("selection"), path: "input.selection")
        if let tagID = selection.string("tagId") { return .tag(tagID) }
        return .chores(selection.strings("choreIds") ?? [])
    }

    /// `input.recipient` (`@oneOf`: `email` or `householdId`).
    private static func recipient(_ input: MutationInput) throws -> NewChoreShare.Recipient {
        let recipient = MutationInput(fields: try input.requiredObject("recipient"), path: "input.recipient")
        if let householdID = recipient.string("householdId") { return .household(householdID) }
        return .email(recipient.string("email") ?? "")
    }

    /// The `ChoreShare` fields that read more than the share's row.
    private static func installShareFields(into resolvers: inout Resolvers, chores: ChoreService) {
        resolvers.resolveAsync("ChoreShare", "recipientHousehold") { source, _, _, _ in
            let share = source as! ChoreShareValue
            guard let householdID = share.record.recipientHouseholdID else { return nil }
            do {
                let (record, access) = try await chores.households.household(id: householdID, viewer: share.viewer)
                return HouseholdValue(record: record, access: access)
            } catch let error as ServiceError where error.code == .notFound {
                // The owner left the household since: the share reaches nobody there.
                return nil
            }
        }
        resolvers.resolveAsync("ChoreShare", "tag") { source, _, _, _ in
            let share = source as! ChoreShareValue
            guard share.isOwner, let tagID = share.record.tagID else { return nil }
            let (tag, access) = try await chores.tag(id: tagID, viewer: share.viewer)
            return TagValue(record: tag, access: access)
        }
        resolvers.resolveAsync("ChoreShare", "chores") { source, arguments, _, _ in
            let share = source as! ChoreShareValue
            let page = try await chores.sharedChores(
                shareID: share.record.id, viewer: share.viewer, first: arguments.int("first"), after: arguments.string("after"))
            return ChoreResolvers.connection(page, chores: chores)
        }
    }
}
