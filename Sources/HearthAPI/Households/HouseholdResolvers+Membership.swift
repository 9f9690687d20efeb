import GraphQL
import HearthDomain
import HearthServices

extension HouseholdResolvers {
    /// Editing and deleting households, the active household, roles, departures, the members
    /// list and a member's account.
    static func installMembership(into resolvers: inout Resolvers, households: HouseholdService) {
        installHouseholdChanges(into: &resolvers, households: households)
        installMemberChanges(into: &resolvers, households: households)
        resolvers.resolveAsync("Household", "members") { source, arguments, _, _ in
            let household = source as! HouseholdValue
            let page = try await households.members(
                household.access, first: arguments.int("first"), after: arguments.string("after"), last: arguments.int("last"),
                before: arguments.string("before"))
            let pageInfo: [String: any Sendable] = [
                "hasNextPage": page.hasNextPage, "hasPreviousPage": page.hasPreviousPage,
                "startCursor": page.startCursor, "endCursor": page.endCursor,
            ]
            return [
                "edges": page.edges.map { edge -> [String: any Sendable] in
                    ["cursor": edge.cursor, "node": MemberValue(record: edge.member, access: household.access)]
                },
                "pageInfo": pageInfo, "totalCount": page.totalCount,
            ] as [String: any Sendable]
        }
        resolvers.resolveField("Member", "user") { source, _, _, _ in
            let member = source as! MemberValue
            guard let userID = member.record.userID else { return .value(nil) }
            let isViewer = userID == member.access.userID
            if let user = try households.accounts.userWithoutWaiting(id: userID) {
                return .value(user.map { UserValue(record: $0, isViewer: isViewer) })
            }
            return .async { try await households.accounts.user(id: userID).map { UserValue(record: $0, isViewer: isViewer) } }
        }
    }

    private static func installHouseholdChanges(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveAsync("Mutation", "updateHousehold") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            // Absent: unchanged (`nil`); `null`: cleared (`.some(nil)`).
            func change(_ field: String) -> String?? {
                input[field].map { _ in input.string(field) }
            }
            let (record, access) = try await households.updateHousehold(
                id: input.string("householdId") ?? "",
                HouseholdService.HouseholdChanges(
                    name: change("name"), emoji: change("emoji"), locationLabel: change("locationLabel"), timeZone: change("timeZone")),
                viewer: viewer, clientMutationID: input.string("clientMutationId"))
            return [
                "household": HouseholdValue(record: record, access: access), "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "deleteHousehold") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let departure = try await households.deleteHousehold(
                id: input.string("householdId") ?? "", confirmName: input.string("confirmName") ?? "", viewer: viewer,
                clientMutationID: input.string("clientMutationId"))
            return [
                "deletedHouseholdId": departure.householdID, "activeHousehold": value(of: departure.activeHousehold),
                "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "setActiveHousehold") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let switched = try await households.setActiveHousehold(
                id: input.string("householdId") ?? "", viewer: viewer, clientMutationID: input.string("clientMutationId"))
            return [
                "household": value(of: switched.household), "previousHousehold": value(of: switched.previousHousehold),
                "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
    }

    private static func installMemberChanges(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolveAsync("Mutation", "changeMemberRole") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let (member, access) = try await households.changeMemberRole(
                memberID: input.string("memberId") ?? "", to: try enumValue(input, "role"), viewer: viewer,
                clientMutationID: input.string("clientMutationId"))
            return [
                "member": MemberValue(record: member, access: access), "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "removeMember") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let removal = try await households.removeMember(
                id: input.string("memberId") ?? "", incompleteTasks: try enumValue(input, "incompleteTasks"), viewer: viewer,
                clientMutationID: input.string("clientMutationId"))
            return [
                "removedMemberId": removal.removedMemberID, "household": value(of: removal.household),
                "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "leaveHousehold") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let departure = try await households.leaveHousehold(
                id: input.string("householdId") ?? "", incompleteTasks: try enumValue(input, "incompleteTasks"), viewer: viewer,
                clientMutationID: input.string("clientMutationId"))
            return [
                "leftHouseholdId": departure.householdID, "activeHousehold": value(of: departure.activeHousehold),
                "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
    }

    /// The `Household` of a household the viewer may see; `nil` for none.
    private static func value(of household: HouseholdService.AccessibleHousehold?) -> HouseholdValue? {
        household.map { HouseholdValue(record: $0.record, access: $0.access) }
    }

    /// The stored enum value named by the input's `field`.
    /// - Throws: `BAD_USER_INPUT` on `input.<field>` when it is missing or unknown (the schema's
    ///   validation normally refuses such input before any resolver runs).
    private static func enumValue<Value: RawRepresentable<String>>(_ input: OrderedMap<String, JSON>, _ field: String) throws -> Value {
        guard let value = GraphQLEnum.value(input.string(field), as: Value.self) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.\(field)", reason: .unknownValue, message: "Choose one of the listed values.")]))
        }
        return value
    }
}
