import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the households part of `schema.graphql` over ``HouseholdService``:
/// reading and creating households here; membership, invitations, children and consent,
/// the economy, the checklist and terms in the extensions of the other files.
enum HouseholdResolvers {
    static func install(into resolvers: inout Resolvers, households: HouseholdService) {
        installMembership(into: &resolvers, households: households)
        installInvitations(into: &resolvers, households: households)
        installChildrenAndEconomy(into: &resolvers, households: households)
        installOnboarding(into: &resolvers, households: households)
        installRealtime(into: &resolvers, households: households)
        resolvers.resolveAsync("Query", "households") { _, _, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            // The list says which one is active: no read per `isActive`.
            return try await households.households(viewer: viewer).map {
                HouseholdValue(record: $0.record, access: $0.access, isActive: $0.isActive)
            }
        }
        resolvers.resolveAsync("Query", "activeHousehold") { _, _, context, info in
            let viewer = try RequestContext.of(context).viewer()
            // The home screen: one page of the members selected is read with the household, in
            // the same read transaction. (Arguments that do not check leave the error to the field.)
            let pages = info.selectedArguments(of: "members")
            if pages.count == 1, let query = try? memberPageQuery(pages[0]) {
                guard let (household, members, mark) = try await households.activeHousehold(viewer: viewer, members: query) else { return nil }
                return HouseholdValue(record: household.record, access: household.access, isActive: true, members: members, readMark: mark)
            }
            guard let (record, access) = try await households.activeHousehold(viewer: viewer) else { return nil }
            return HouseholdValue(record: record, access: access, isActive: true)
        }
        resolvers.resolveAsync("Query", "household") { _, arguments, context, info in
            let viewer = try RequestContext.of(context).viewer()
            let id = arguments.string("id") ?? ""
            // The setup checklist: read with the household, in the same read transaction.
            if !info.selectedArguments(of: "onboarding").isEmpty {
                let (household, onboarding) = try await households.householdWithOnboarding(id: id, viewer: viewer)
                return HouseholdValue(record: household.record, access: household.access, onboarding: onboarding)
            }
            let (record, access) = try await households.household(id: id, viewer: viewer)
            return HouseholdValue(record: record, access: access)
        }
        resolvers.resolveField("Household", "isActive") { source, _, _, _ in
            let household = source as! HouseholdValue
            if let isActive = household.knownIsActive { return .value(isActive) }
            return .async { try await households.isActiveHousehold(household.access) }
        }
        resolvers.resolve("Household", "viewerMember") { source, _, _, _ in
            let household = source as! HouseholdValue
            // Read with the access check that made `access`, in the same request.
            return MemberValue(record: household.access.member, access: household.access)
        }
        resolvers.resolveAsync("Member", "household") { source, _, _, _ in
            let member = source as! MemberValue
            return HouseholdValue(record: try await households.household(member.access), access: member.access)
        }
        resolvers.resolveMutation("createHousehold") { input, context in
            let viewer = try context.viewer()
            let (household, member, access) = try await households.createHousehold(
                HouseholdService.NewHousehold(
                    name: try input.requiredString("name"), emoji: input.string("emoji"), locationLabel: input.string("locationLabel"),
                    timeZone: input.string("timeZone"), id: input.string("id")),
                viewer: viewer, clientMutationID: input.clientMutationID)
            return ["household": HouseholdValue(record: household, access: access), "member": MemberValue(record: member, access: access)]
        }
    }
}
