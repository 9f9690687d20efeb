import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the households part of `schema.graphql` over ``HouseholdService``:
/// reading and creating households here; membership, invitations, children and consent,
/// the economy, the checklist and terms in the extensions of the other files.
enum HouseholdResolvers {
    static func install(into resolvers: inout Resolvers, households: HouseholdService) {
        let texts = HouseholdTextCache(
            entries: households.configuration.keptReadEntries, bytes: households.configuration.keptTextBytes)
        installMembership(into: &resolvers, households: households, texts: texts)
        installInvitations(into: &resolvers, households: households)
        installChildrenAndEconomy(into: &resolvers, households: households)
        installOnboarding(into: &resolvers, households: households)
        installRealtime(into: &resolvers, households: households)
        // The household screens: one mark per request, taken before the reads it serves
        // (`HouseholdTextCache`); kept text is written back while it is the same.
        resolvers.resolveAsync("Query", "households") { _, _, context, info in
            let viewer = try RequestContext.of(context).viewer()
            let mark = try await households.readMark()
            return try await texts.resolve(info, userID: viewer.userID, mark: mark, by: HouseholdTextCache.household, read: { _ in
                // The list says which one is active: no read per `isActive`.
                try await households.households(viewer: viewer, at: mark).map {
                    HouseholdValue(record: $0.record, access: $0.access, isActive: $0.isActive)
                }
            }, households: { $0 })
        }
        resolvers.resolveAsync("Query", "activeHousehold") { _, _, context, info in
            let viewer = try RequestContext.of(context).viewer()
            let mark = try await households.readMark()
            return try await texts.resolve(info, userID: viewer.userID, mark: mark, by: HouseholdTextCache.household, read: { isKept -> HouseholdValue? in
                // The home screen: one page of the members selected is read with the household, in
                // the same read transaction. (Arguments that do not check leave the error to the field.)
                let pages = info.selectedArguments(of: "members")
                if pages.count == 1, let query = try? memberPageQuery(pages[0]) {
                    guard let (household, members) = try await households.activeHousehold(viewer: viewer, members: query, at: mark) else {
                        return nil
                    }
                    return HouseholdValue(
                        record: household.record, access: household.access, isActive: true, members: members, readMark: isKept ? nil : mark)
                }
                guard let (record, access) = try await households.activeHousehold(viewer: viewer, at: mark) else { return nil }
                return HouseholdValue(record: record, access: access, isActive: true)
            }, households: { $0.map { [$0] } ?? [] })
        }
        resolvers.resolveAsync("Query", "household") { _, arguments, context, info in
            let viewer = try RequestContext.of(context).viewer()
            let id = arguments.string("id") ?? ""
            // Not a household's id: no mark, no read.
            guard GlobalID.mayName(.household, id) else { throw ServiceError.householdNotFound }
            let mark = try await households.readMark()
            return try await texts.resolve(info, userID: viewer.userID, mark: mark, by: HouseholdTextCache.household, read: { _ in
                // The setup checklist: read with the household, in the same read transaction.
                if !info.selectedArguments(of: "onboarding").isEmpty {
                    let (household, onboarding) = try await households.householdWithOnboarding(id: id, viewer: viewer, at: mark)
                    return HouseholdValue(record: household.record, access: household.access, onboarding: onboarding)
                }
                let (record, access) = try await households.household(id: id, viewer: viewer, at: mark)
                return HouseholdValue(record: record, access: access)
            }, households: { [$0] })
        }
        resolvers.resolveField("Household", "isActive") { source, _, _, _ in
            let household = source as! HouseholdValue
            if let isActive = household.knownIsActive { return .value(isActive) }
            household.noteReadBeyondInputs()
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
