import GraphQL
import HearthDomain
import HearthServices

extension ChoreResolvers {
    /// Tags, presets and the household's chore-creation policy.
    static func installLibrary(into resolvers: inout Resolvers, chores: ChoreService) {
        installTags(into: &resolvers, chores: chores)
        installPresets(into: &resolvers, chores: chores)
        resolvers.resolveAsync("Household", "choreCreationPolicy") { source, _, _, _ in
            let household = source as! HouseholdValue
            return PermissionRuleValue(granted: try await chores.choreCreationPolicy(household.access), access: household.access)
        }
    }

    private static func installTags(into resolvers: inout Resolvers, chores: ChoreService) {
        resolvers.resolveAsync("Household", "tags") { source, _, context, _ in
            let household = source as! HouseholdValue
            let (tags, access) = try await chores.tags(householdID: household.record.id, viewer: try RequestContext.of(context).viewer())
            return tags.map { TagValue(record: $0, access: access) }
        }
        resolvers.resolveAsync("Query", "personalTags") { _, _, context, _ in
            let (tags, access) = try await chores.tags(householdID: nil, viewer: try RequestContext.of(context).viewer())
            return tags.map { TagValue(record: $0, access: access) }
        }
        resolvers.resolveAsync("Tag", "household") { source, _, _, _ in
            let tag = source as! TagValue
            guard let access = tag.access.household else { return nil }
            return HouseholdValue(record: try await chores.households.household(access), access: access)
        }
        resolvers.resolveMutation("createTag") { input, context in
            let (tag, access) = try await chores.createTag(
                householdID: input.string("householdId"), name: try input.requiredString("name"), color: input.string("color"),
                id: input.string("id"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["tag": TagValue(record: tag, access: access)]
        }
        resolvers.resolveMutation("updateTag") { input, context in
            let (tag, access) = try await chores.updateTag(
                id: try input.requiredString("tagId"), name: input.string("name"), color: input.change("color"), viewer: try context.viewer(),
                clientMutationID: input.clientMutationID)
            return ["tag": TagValue(record: tag, access: access)]
        }
        resolvers.resolveMutation("deleteTag") { input, context in
            ["deletedTagId": try await chores.deleteTag(id: try input.requiredString("tagId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
    }

    private static func installPresets(into resolvers: inout Resolvers, chores: ChoreService) {
        resolvers.resolveAsync("Query", "chorePresets") { _, arguments, context, _ in
            let page = try await chores.presets(
                householdID: arguments.string("householdId"), search: arguments.string("search"), tag: arguments.string("tag"),
                first: arguments.int("first"), after: arguments.string("after"), viewer: try RequestContext.of(context).viewer())
            let pageInfo: [String: any Sendable] = [
                "hasNextPage": page.hasNextPage, "hasPreviousPage": page.hasPreviousPage, "startCursor": page.presets.first?.id,
                "endCursor": page.presets.last?.id,
            ]
            return [
                "edges": page.presets.map { preset -> [String: any Sendable] in ["cursor": preset.id, "node": ChorePresetValue(preset: preset)] },
                "pageInfo": pageInfo, "totalCount": page.totalCount,
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Query", "quickStartChorePresets") { _, _, context, _ in
            _ = try RequestContext.of(context).viewer()
            return chores.quickStartPresets.map(ChorePresetValue.init)
        }
        resolvers.resolveAsync("ChorePreset", "household") { source, _, context, _ in
            guard let householdID = (source as! ChorePresetValue).preset.householdID else { return nil }
            let (record, access) = try await chores.households.household(id: householdID, viewer: try RequestContext.of(context).viewer())
            return HouseholdValue(record: record, access: access)
        }
        resolvers.resolveMutation("saveChorePreset") { input, context in
            let preset = try await chores.saveChorePreset(
                choreID: try input.requiredString("choreId"), title: input.string("title"), id: input.string("id"),
                viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["preset": ChorePresetValue(preset: preset)]
        }
        resolvers.resolveMutation("deleteChorePreset") { input, context in
            ["deletedPresetId": try await chores.deleteChorePreset(
                id: try input.requiredString("presetId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
    }

    /// The chores, tags, presets and shares among `ids` the viewer may see, as `Node` values.
    static func nodes(ids: [String], chores: ChoreService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        var choresByAccess: [ChoreAccess: [ChoreRecord]] = [:]
        for (id, node) in try await chores.nodes(ids: ids, viewer: viewer) {
            switch node {
            case .chore(let record, let access): choresByAccess[access, default: []].append(record)
            case .tag(let record, let access): found[id] = TagValue(record: record, access: access)
            case .preset(let preset): found[id] = ChorePresetValue(preset: preset)
            case .share(let record): found[id] = ChoreShareValue(record: record, viewer: viewer)
            }
        }
        for (access, records) in choresByAccess {
            for value in ChoreValue.values(records, access: access, service: chores) { found[value.record.id] = value }
        }
        return found
    }
}
