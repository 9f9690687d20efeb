import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the chores part of `schema.graphql` over ``ChoreService``: reading chores and
/// their related rows here (batched per result set, ``ChoreBatch``); mutations, tags and presets,
/// the creation policy and node lookups in the extensions of the other files.
enum ChoreResolvers {
    /// - Parameter viewCache: where the chore lists are kept between requests; `nil` reads each afresh.
    static func install(into resolvers: inout Resolvers, chores: ChoreService, viewCache: ChoreViewCache?) {
        installChoreFields(into: &resolvers, chores: chores)
        installMutations(into: &resolvers, chores: chores)
        installLibrary(into: &resolvers, chores: chores)
        resolvers.resolveAsync("Query", "chore") { _, arguments, context, _ in
            let (record, access) = try await chores.chore(id: arguments.string("id") ?? "", viewer: try RequestContext.of(context).viewer())
            return ChoreValue.values([record], access: access, service: chores)[0]
        }
        for (field, isPersonal) in [("householdChores", false), ("personalChores", true)] {
            resolvers.resolveAsync("Query", field) { _, arguments, context, info in
                let viewer = try RequestContext.of(context).viewer()
                let householdID = isPersonal ? nil : arguments.string("householdId") ?? ""
                let read = {
                    connection(
                        try await chores.chores(
                            householdID: householdID, filter: try ChoreInputs.filter(arguments), first: arguments.int("first"),
                            after: arguments.string("after"), viewer: viewer),
                        chores: chores)
                }
                guard let viewCache else { return try await read() }
                return try await viewCache.resolve(
                    info, viewer: viewer, mark: try await chores.viewMark(),
                    stamp: { try await chores.viewStamp(householdID: householdID, viewer: viewer) }, build: { (try await read(), nil) })
            }
        }
        resolvers.resolveAsync("HouseholdEvent", "chore") { source, _, _, _ in
            let event = source as! HouseholdEventValue
            return try await currentChore(event.chores?.choreID, for: event.subscriber, chores: chores)
        }
    }

    /// Chore `choreID` as `subscriber` may see it now (an event's chore, when it is delivered); `nil`
    /// when there is none, or it is gone or out of reach.
    static func currentChore(_ choreID: String?, for subscriber: Viewer, chores: ChoreService) async throws -> ChoreValue? {
        guard let choreID,
              case .chore(let record, let access)? = try await chores.nodes(ids: [choreID], viewer: subscriber)[choreID]
        else { return nil }
        return ChoreValue.values([record], access: access, service: chores)[0]
    }

    /// A `ChoreConnection` of `page`, its chores sharing one batch.
    static func connection(_ page: ChorePage, chores: ChoreService) -> [String: any Sendable] {
        let values = ChoreValue.values(page.edges.map(\.chore), access: page.access, service: chores)
        let pageInfo: [String: any Sendable] = [
            "hasNextPage": page.hasNextPage, "hasPreviousPage": page.hasPreviousPage, "startCursor": page.startCursor,
            "endCursor": page.endCursor,
        ]
        return [
            "edges": zip(page.edges, values).map { edge, value -> [String: any Sendable] in ["cursor": edge.cursor, "node": value] },
            "pageInfo": pageInfo, "totalCount": page.totalCount,
        ]
    }

    /// The `Chore` fields read through the chore's batch.
    private static func installChoreFields(into resolvers: inout Resolvers, chores: ChoreService) {
        let accounts = chores.households.accounts
        resolvers.resolveField("Chore", "household") { source, _, _, _ in
            let chore = source as! ChoreValue
            guard let householdID = chore.record.householdID, let access = chore.batch.access.household else { return .value(nil) }
            let load = chore.batch.household.load(householdID)
            return .async { try await load().map { HouseholdValue(record: $0, access: access) } }
        }
        resolvers.resolveField("Chore", "assignees") { source, _, _, _ in
            let chore = source as! ChoreValue
            guard let access = chore.batch.access.household else { return .value([ChoreAssigneeValue]()) }
            let load = chore.batch.assignees.load(chore.record)
            return .async {
                try await (load() ?? []).map { ChoreAssigneeValue(assignee: $0, access: access, avatarURL: $0.avatarID.map(accounts.avatarURL(id:))) }
            }
        }
        resolvers.resolveField("Chore", "steps") { source, _, _, _ in
            let chore = source as! ChoreValue
            let steps = chore.batch.steps.load(chore.record.id)
            let rules = chore.batch.rules.load(chore.record.id)
            let access = chore.batch.access.household
            return .async {
                let stepRules = try await rules()?.steps ?? [:]
                return try await (steps() ?? []).map { step in
                    ChoreStepValue(
                        step: step,
                        assignee: step.assignee.flatMap { assignee in
                            access.map { ChoreAssigneeValue(assignee: assignee, access: $0, avatarURL: assignee.avatarID.map(accounts.avatarURL(id:))) }
                        },
                        completers: stepRules[step.id].map { PermissionRuleValue(granted: $0, access: access) })
                }
            }
        }
        resolvers.resolveField("Chore", "hasSteps") { source, _, _, _ in
            let chore = source as! ChoreValue
            let load = chore.batch.steps.load(chore.record.id)
            return .async { try await !(load() ?? []).isEmpty }
        }
        resolvers.resolveField("Chore", "tags") { source, _, _, _ in
            let chore = source as! ChoreValue
            let load = chore.batch.tags.load(chore.record.id)
            return .async { try await (load() ?? []).map { TagValue(record: $0, access: chore.batch.access) } }
        }
        let rules: [(String, @Sendable (ChoreRuleSet) -> GrantedRule)] = [("completers", { $0.completers }), ("editors", { $0.editors })]
        for (field, rule) in rules {
            resolvers.resolveField("Chore", field) { source, _, _, _ in
                let chore = source as! ChoreValue
                let load = chore.batch.rules.load(chore.record.id)
                return .async { PermissionRuleValue(granted: try await load().map(rule) ?? GrantedRule(), access: chore.batch.access.household) }
            }
        }
        resolvers.resolveField("Chore", "viewerCanEdit") { source, _, _, _ in
            let chore = source as! ChoreValue
            // A chore shared with the viewer is read-only (FR-40, FR-41).
            guard !chore.batch.access.isShared else { return .value(false) }
            guard let access = chore.batch.access.household, !access.isAdmin else { return .value(true) }
            let load = chore.batch.rules.load(chore.record.id)
            return .async {
                let editors = try await load()?.editors.rule ?? .nobody
                return editors.admits(memberID: access.memberID, role: access.role, kind: access.member.kind)
            }
        }
    }
}
