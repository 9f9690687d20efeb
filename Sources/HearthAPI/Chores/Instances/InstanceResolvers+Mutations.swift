import GraphQL
import HearthDomain
import HearthServices

extension InstanceResolvers {
    /// `completeChore` and `uncompleteChore`.
    static func installMutations(into resolvers: inout Resolvers, services: InstanceServices) {
        resolvers.resolveMutation("completeChore") { input, context in
            let result = try await services.instances.completeChore(
                CompletionRequest(
                    instanceID: try input.requiredString("instanceId"), stepID: input.string("stepId"),
                    crossHousehold: try input.optionalEnumValue("crossHousehold"), onBehalfOf: input.string("onBehalfOf")),
                viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            let instance = ChoreInstanceValue.values([result.instance], services: services)[0]
            var payload: [String: any Sendable] = [
                "outcome": GraphQLEnum.name(of: result.outcome), "instance": instance,
                "completion": result.completion.map { ChoreCompletionValue(record: $0, choreTitle: result.instance.chore.title, batch: instance.batch) },
            ]
            if let (active, access) = result.activeHousehold {
                payload["activeHousehold"] = HouseholdValue(record: active, access: access, isActive: true)
            }
            return payload
        }
        resolvers.resolveMutation("uncompleteChore") { input, context in
            let (instance, completion) = try await services.instances.uncompleteChore(
                instanceID: try input.requiredString("instanceId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            let value = ChoreInstanceValue.values([instance], services: services)[0]
            return ["instance": value, "undoneCompletion": ChoreCompletionValue(record: completion, choreTitle: instance.chore.title, batch: value.batch)]
        }
    }

    /// The chore instances and completions among `ids` the viewer may see, as `Node` values.
    static func nodes(ids: [String], services: InstanceServices, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        var batches: [ChoreAccess: InstanceBatch] = [:]
        func batch(_ access: ChoreAccess) -> InstanceBatch {
            let batch = batches[access] ?? InstanceBatch(access: access, services: services)
            batches[access] = batch
            return batch
        }
        for (id, node) in try await services.instances.nodes(ids: ids, viewer: viewer) {
            switch node {
            case .instance(let (instance, chore, access)):
                let shared = batch(access)
                found[id] = ChoreInstanceValue(record: instance, chore: shared.chore(chore), batch: shared)
            case .completion(let entry):
                found[id] = ChoreCompletionValue(record: entry.completion, choreTitle: entry.choreTitle, batch: batch(entry.access))
            }
        }
        return found
    }
}
