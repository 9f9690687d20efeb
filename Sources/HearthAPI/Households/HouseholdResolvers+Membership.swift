import GraphQL
import HearthDomain
import HearthServices

extension HouseholdResolvers {
    /// Editing and deleting households, the active household, roles, departures, the members
    /// list and a member's account.
    static func installMembership(into resolvers: inout Resolvers, households: HouseholdService, texts: HouseholdTextCache) {
        installHouseholdChanges(into: &resolvers, households: households)
        installMemberChanges(into: &resolvers, households: households)
        // Async, also when the page is known: the executor takes kept text (and captures text to
        // keep) from what async work returns.
        resolvers.resolveAsync("Household", "members") { source, arguments, _, info in
            let household = source as! HouseholdValue
            guard let known = household.knownMembers else {
                household.noteReadBeyondInputs()
                let page = try await households.members(household.access, memberPageQuery(arguments))
                return MemberConnectionValue(page: page, access: household.access, accounts: households.accounts)
            }
            // Read with the household (the home screen): its text is kept while nothing commits,
            // unless the household's own text is.
            return try await texts.resolve(info, userID: household.access.userID, mark: household.readMark, by: HouseholdTextCache.members) {
                MemberConnectionValue(page: known, access: household.access, accounts: households.accounts)
            }
        }
        resolvers.resolveField("Member", "user") { source, _, _, _ in
            let member = source as! MemberValue
            // A departed member's account is no longer the household's business: history shows the name only.
            guard let userID = member.record.userID, member.record.status != .departed else { return .value(nil) }
            let isViewer = userID == member.access.userID
            if let user = households.accounts.cachedUser(id: userID) {
                return .value(user.map { UserValue(record: $0, isViewer: isViewer) })
            }
            if let users = member.users {
                // A member of a list: the accounts the cache lacks are read for the whole list at once.
                let load = users.load(userID)
                return .async { try await load().flatMap { $0 }.map { UserValue(record: $0, isViewer: isViewer) } }
            }
            if let user = try households.accounts.userWithoutWaiting(id: userID) {
                return .value(user.map { UserValue(record: $0, isViewer: isViewer) })
            }
            return .async { try await households.accounts.user(id: userID).map { UserValue(record: $0, isViewer: isViewer) } }
        }
    }

    /// The page the arguments of `Household.members` ask for.
    /// - Throws: `BAD_USER_INPUT` for arguments ``MemberPageQuery`` refuses.
    static func memberPageQuery(_ arguments: Arguments) throws -> MemberPageQuery {
        try MemberPageQuery(
            first: arguments.int("first"), after: arguments.string("after"), last: arguments.int("last"),
            before: arguments.string("before"), includeDeparted: arguments.bool("includeDeparted") ?? false)
    }

    private static func installHouseholdChanges(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveMutation("updateHousehold") { input, context in
            let viewer = try context.viewer()
            let (record, access) = try await households.updateHousehold(
                id: try input.requiredString("householdId"),
                HouseholdService.HouseholdChanges(
                    name: input.change("name"), emoji: input.change("emoji"), locationLabel: input.change("locationLabel"),
                    timeZone: input.change("timeZone"),
                    firstWeekday: input.change("firstWeekday") { GraphQLEnum.value(input.string($0), as: Weekday.self) }),
                viewer: viewer, clientMutationID: input.clientMutationID)
            return ["household": HouseholdValue(record: record, access: access)]
        }
        resolvers.resolveMutation("deleteHousehold") { input, context in
            let viewer = try context.viewer()
            let departure = try await households.deleteHousehold(
                id: try input.requiredString("householdId"), confirmName: try input.requiredString("confirmName"), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["deletedHouseholdId": departure.householdID, "activeHousehold": value(of: departure.activeHousehold)]
        }
        resolvers.resolveMutation("setActiveHousehold") { input, context in
            let viewer = try context.viewer()
            let switched = try await households.setActiveHousehold(
                id: try input.requiredString("householdId"), viewer: viewer, clientMutationID: input.clientMutationID)
            return ["household": value(of: switched.household), "previousHousehold": value(of: switched.previousHousehold)]
        }
    }

    private static func installMemberChanges(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveMutation("changeMemberRole") { input, context in
            let viewer = try context.viewer()
            let (member, access) = try await households.changeMemberRole(
                memberID: try input.requiredString("memberId"), to: try input.enumValue("role"), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["member": MemberValue(record: member, access: access)]
        }
        resolvers.resolveMutation("removeMember") { input, context in
            let viewer = try context.viewer()
            let removal = try await households.removeMember(
                id: try input.requiredString("memberId"), incompleteTasks: try input.enumValue("incompleteTasks"), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["removedMemberId": removal.removedMemberID, "household": value(of: removal.household)]
        }
        resolvers.resolveMutation("leaveHousehold") { input, context in
            let viewer = try context.viewer()
            let departure = try await households.leaveHousehold(
                id: try input.requiredString("householdId"), incompleteTasks: try input.enumValue("incompleteTasks"), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["leftHouseholdId": departure.householdID, "activeHousehold": value(of: departure.activeHousehold)]
        }
    }

    /// The `Household` of a household the viewer may see; `nil` for none.
    private static func value(of household: HouseholdService.AccessibleHousehold?) -> HouseholdValue? {
        household.map { HouseholdValue(record: $0.record, access: $0.access) }
    }
}
