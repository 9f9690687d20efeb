import GraphQL
import HearthDomain
import HearthServices

extension ChoreResolvers {
    /// `createChore`, `updateChore`, `deleteChore` and `updateChoreCreationPolicy`.
    static func installMutations(into resolvers: inout Resolvers, chores: ChoreService) {
        resolvers.resolveMutation("createChore") { input, context in
            let (record, access) = try await chores.createChore(
                try ChoreInputs.newChore(input), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["chore": ChoreValue.values([record], access: access, service: chores)[0]]
        }
        resolvers.resolveMutation("updateChore") { input, context in
            let (record, access) = try await chores.updateChore(
                id: try input.requiredString("choreId"), try ChoreInputs.fields(input), viewer: try context.viewer(),
                clientMutationID: input.clientMutationID)
            return ["chore": ChoreValue.values([record], access: access, service: chores)[0]]
        }
        resolvers.resolveMutation("deleteChore") { input, context in
            let id = try await chores.deleteChore(
                id: try input.requiredString("choreId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["deletedChoreId": id]
        }
        resolvers.resolveMutation("updateChoreCreationPolicy") { input, context in
            let viewer = try context.viewer()
            let householdID = try input.requiredString("householdId")
            let creators = try ChoreInputs.rule(MutationInput(fields: try input.requiredObject("creators"), field: "creators"))
            let policy = try await chores.updateChoreCreationPolicy(
                householdID: householdID, creators: creators, viewer: viewer, clientMutationID: input.clientMutationID)
            let (record, access) = try await chores.households.household(id: householdID, viewer: viewer)
            return ["household": HouseholdValue(record: record, access: access), "choreCreationPolicy": PermissionRuleValue(granted: policy, access: access)]
        }
    }
}
