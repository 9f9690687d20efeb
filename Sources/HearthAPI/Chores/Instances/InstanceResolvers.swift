import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the instances part of `schema.graphql` over ``ChoreInstanceService``: reading
/// here (`myChores`, the `ChoreInstance` and `ChoreCompletion` fields, a chore's occurrences and
/// history, a member's history), mutations in `InstanceResolvers+Mutations`.
enum InstanceResolvers {
    /// - Parameter viewCache: where `myChores` lists are kept between requests; `nil` reads each afresh.
    static func install(into resolvers: inout Resolvers, services: InstanceServices, viewCache: ChoreViewCache?) {
        let instances = services.instances
        resolvers.resolveAsync("Query", "myChores") { _, arguments, context, info in
            let viewer = try RequestContext.of(context).viewer()
            let filter = try InstanceInputs.myChoresFilter(arguments)
            let read = { () async throws -> (value: Any?, changesAt: Date?) in
                let page = try await instances.myChores(filter: filter, first: arguments.int("first"), after: arguments.string("after"), viewer: viewer)
                return (connection(page.edges.map(\.cursor), ChoreInstanceValue.values(page.edges.map(\.node), services: services), page), page.changesAt)
            }
            guard let viewCache else { return try await read().value }
            return try await viewCache.resolve(
                info, viewer: viewer, mark: try await services.chores.viewMark(),
                stamp: { try await instances.myChoresStamp(filter: filter, viewer: viewer) }, build: read)
        }
        resolvers.resolveField("Chore", "occurrences") { source, arguments, _, _ in
            let chore = source as! ChoreValue
            guard let after = arguments.string("after").flatMap(DateTimeScalar.date) else {
                throw ServiceError.invalid(InputProblems([FieldProblem(field: "after", reason: .invalidFormat, message: "Give an RFC 3339 date-time.")]))
            }
            // The household (its time zone) and the latest completions of `afterCompletion` chores
            // are read once for the whole list (the chore's batch), so a list's "next due" of each
            // chore costs no read per chore.
            let household = chore.record.householdID.map { chore.batch.household.load($0) }
            let latest: (@Sendable () async throws -> [String: Date]?)? =
                if case .afterCompletion = chore.record.schedule, household != nil { chore.batch.latestCompletions.load(chore.record.id) } else { nil }
            return .async {
                let timeZoneName = try await household?()?.timeZone
                var latestCompletions: [String: Date]?
                if let latest { latestCompletions = try await latest() ?? [:] }
                return try await instances.occurrences(
                    of: chore.record, access: chore.batch.access, timeZoneName: timeZoneName, latestCompletions: latestCompletions,
                    after: after, first: arguments.int("first") ?? 0)
            }
        }
        resolvers.resolveAsync("Chore", "completions") { source, arguments, _, _ in
            let chore = source as! ChoreValue
            let page = try await instances.history(
                ofChore: chore.record.id, access: chore.batch.access, first: arguments.int("first"), after: arguments.string("after"))
            return history(page, services: services)
        }
        resolvers.resolveAsync("Member", "completions") { source, arguments, _, _ in
            let member = source as! MemberValue
            let page = try await instances.history(
                ofMember: member.record.id, access: member.access, first: arguments.int("first"), after: arguments.string("after"))
            return history(page, services: services)
        }
        installInstanceFields(into: &resolvers, services: services)
        installCompletionFields(into: &resolvers)
        installMutations(into: &resolvers, services: services)
        installClaims(into: &resolvers, services: services)
    }

    /// A connection of `values` with `cursors`, as `page` says.
    static func connection(_ cursors: [String], _ values: [any Sendable], _ page: InstancePage<some Sendable>) -> [String: any Sendable] {
        let pageInfo: [String: any Sendable] = [
            "hasNextPage": page.hasNextPage, "hasPreviousPage": page.hasPreviousPage, "startCursor": page.startCursor,
            "endCursor": page.endCursor,
        ]
        return [
            "edges": zip(cursors, values).map { cursor, value -> [String: any Sendable] in ["cursor": cursor, "node": value] },
            "pageInfo": pageInfo,
        ]
    }

    /// A `ChoreCompletionConnection` of a history page, its entries sharing one batch.
    private static func history(_ page: InstancePage<HistoryEntry>, services: InstanceServices) -> [String: any Sendable] {
        guard let access = page.edges.first?.node.access else { return connection([], [], page) }
        let batch = InstanceBatch(access: access, services: services)
        let values = page.edges.map { ChoreCompletionValue(record: $0.node.completion, choreTitle: $0.node.choreTitle, batch: batch) }
        return connection(page.edges.map(\.cursor), values, page)
    }

    /// The `ChoreInstance` fields read through the batch.
    private static func installInstanceFields(into resolvers: inout Resolvers, services: InstanceServices) {
        let accounts = services.chores.households.accounts
        resolvers.resolveField("ChoreInstance", "household") { source, _, _, _ in
            let instance = source as! ChoreInstanceValue
            guard let householdID = instance.record.householdID, let access = instance.batch.access.household else { return .value(nil) }
            let load = instance.batch.choreBatch.household.load(householdID)
            return .async { try await load().map { HouseholdValue(record: $0, access: access) } }
        }
        resolveMember(into: &resolvers, "ChoreInstance", "member") { (instance: ChoreInstanceValue) in instance.record.memberID }
        resolveMember(into: &resolvers, "ChoreInstance", "claimant") { (instance: ChoreInstanceValue) in instance.record.claimantID }
        resolveMember(into: &resolvers, "ChoreInstance", "reassignedTo") { (instance: ChoreInstanceValue) in instance.record.reassignedTo }
        resolvers.resolveField("ChoreInstance", "completions") { source, _, _, _ in
            let instance = source as! ChoreInstanceValue
            guard instance.record.isMaterialized else { return .value([ChoreCompletionValue]()) }
            let load = instance.batch.completions.load(instance.record.id)
            return .async {
                try await (load() ?? []).map { ChoreCompletionValue(record: $0, choreTitle: instance.chore.record.title, batch: instance.batch) }
            }
        }
        resolvers.resolveField("ChoreInstance", "steps") { source, _, _, _ in
            let instance = source as! ChoreInstanceValue
            let steps = instance.chore.batch.steps.load(instance.chore.record.id)
            let rules = instance.chore.batch.rules.load(instance.chore.record.id)
            let completions = instance.record.isMaterialized ? instance.batch.completions.load(instance.record.id) : { @Sendable in nil }
            let household = instance.batch.access.household
            return .async {
                let done = Dictionary((try await completions() ?? []).compactMap { completion in completion.step.map { ($0.id, completion) } }) { first, _ in first }
                let stepRules = try await rules()?.steps ?? [:]
                var previousDone = true
                return try await (steps() ?? []).map { step -> InstanceStepValue in
                    let completion = done[step.id]
                    defer { previousDone = completion != nil }
                    let value = ChoreStepValue(
                        step: step,
                        assignee: step.assignee.flatMap { assignee in
                            household.map { ChoreAssigneeValue(assignee: assignee, access: $0, avatarURL: assignee.avatarID.map(accounts.avatarURL(id:))) }
                        },
                        completers: stepRules[step.id].map { PermissionRuleValue(granted: $0, access: household) })
                    return InstanceStepValue(
                        step: value, completion: completion.map { ChoreCompletionValue(record: $0, choreTitle: instance.chore.record.title, batch: instance.batch) },
                        isLocked: completion == nil && !previousDone)
                }
            }
        }
    }

    /// Resolves `type.field` as the member `memberID` names in the source (`null` for none),
    /// loaded with the source's batch.
    private static func resolveMember<Source: InstanceBatched>(
        into resolvers: inout Resolvers, _ type: String, _ field: String, _ memberID: @escaping @Sendable (Source) -> String?
    ) {
        resolvers.resolveField(type, field) { source, _, _, _ in
            let value = source as! Source
            let load = value.batch.member(memberID(value))
            return .async { try await load() }
        }
    }

    /// The `ChoreCompletion` fields read through the batch.
    private static func installCompletionFields(into resolvers: inout Resolvers) {
        resolveMember(into: &resolvers, "ChoreCompletion", "member") { (completion: ChoreCompletionValue) in completion.record.memberID }
        resolveMember(into: &resolvers, "ChoreCompletion", "recordedBy") { (completion: ChoreCompletionValue) in
            completion.record.isRecordedForAnother ? completion.record.recordedByMemberID : nil
        }
        resolvers.resolveField("ChoreCompletion", "chore") { source, _, _, _ in
            let completion = source as! ChoreCompletionValue
            let load = completion.batch.chores.load(completion.record.choreID)
            return .async { try await load().map(completion.batch.chore) }
        }
        resolvers.resolveField("ChoreCompletion", "choreTitle") { source, _, _, _ in
            let completion = source as! ChoreCompletionValue
            if let title = completion.choreTitle { return .value(title) }
            let load = completion.batch.chores.load(completion.record.choreID)
            return .async { try await load()?.title ?? "" }
        }
        resolvers.resolveField("ChoreCompletion", "instance") { source, _, _, _ in
            let completion = source as! ChoreCompletionValue
            let instance = completion.batch.instances.load(completion.record.instanceID)
            let chore = completion.batch.chores.load(completion.record.choreID)
            return .async {
                guard let record = try await instance(), let choreRecord = try await chore() else { return nil }
                return ChoreInstanceValue(record: record, chore: completion.batch.chore(choreRecord), batch: completion.batch)
            }
        }
    }
}
