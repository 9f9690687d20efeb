import GraphQL
import HearthDomain
import HearthServices

extension InstanceResolvers {
    /// `claimChore`, `releaseChore` (FR-52, FR-53) and `Subscription.choreEvents` with the
    /// `ChoreEvent` fields that read the current state.
    static func installClaims(into resolvers: inout Resolvers, services: InstanceServices) {
        resolvers.resolveMutation("claimChore") { input, context in
            let result = try await services.instances.claimChore(
                instanceID: try input.requiredString("instanceId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return payload(result, services: services, member: "claimant")
        }
        resolvers.resolveMutation("releaseChore") { input, context in
            let result = try await services.instances.releaseChore(
                instanceID: try input.requiredString("instanceId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return payload(result, services: services, member: "releasedClaimant")
        }
        installChoreEvents(into: &resolvers, services: services)
    }

    /// A claim's or release's payload: the instance, and the member under `member`.
    private static func payload(_ result: ClaimResult, services: InstanceServices, member: String) -> [String: any Sendable] {
        let instance = ChoreInstanceValue.values([result.instance], services: services)[0]
        guard let access = result.instance.access.household else { return ["instance": instance] }
        return ["instance": instance, member: MemberValue(record: result.member, access: access)]
    }

    /// `Subscription.choreEvents`: a household's chore events for one member, through
    /// ``HouseholdEventSource`` (membership checked on subscribing, the stream ending with it,
    /// resuming after a `sequence`). Offers reach only the members offered; the `chore`, `instance`
    /// and `member` of each event are read when it is delivered, with the subscriber's access then,
    /// and are null when gone or out of their reach.
    private static func installChoreEvents(into resolvers: inout Resolvers, services: InstanceServices) {
        let households = services.chores.households
        resolvers.subscribe("choreEvents") { _, arguments, context, _ in
            let subscriber = try RequestContext.of(context).viewer()
            let cursor = try arguments.string("after").map { text -> Int64 in
                guard let sequence = Int64(text), sequence >= 0 else {
                    throw ServiceError.invalid(InputProblems([FieldProblem(
                        field: "after", reason: .invalidFormat, message: "Give the sequence of an event this subscription delivered.")]))
                }
                return sequence
            }
            return try await HouseholdEventSource.stream(
                households: households, subscriber: subscriber, householdID: arguments.string("householdId") ?? "", after: cursor
            ) { event, missedEvents, member in
                try ChoreEventValue(event, missedEvents: missedEvents, subscriber: subscriber, member: member)
            }
        }
        resolvers.resolveAsync("ChoreEvent", "chore") { source, _, _, _ in
            let event = source as! ChoreEventValue
            return try await ChoreResolvers.currentChore(event.choreID, for: event.subscriber, chores: services.chores)
        }
        resolvers.resolveAsync("ChoreEvent", "instance") { source, _, _, _ in
            let event = source as! ChoreEventValue
            guard let instanceID = event.instanceID else { return nil }
            do {
                let instance = try await services.instances.instance(id: instanceID, viewer: event.subscriber)
                return ChoreInstanceValue.values([instance], services: services)[0]
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
        }
        resolvers.resolveAsync("ChoreEvent", "member") { source, _, _, _ in
            let event = source as! ChoreEventValue
            guard let memberID = event.memberID else { return nil }
            return try await HouseholdResolvers.currentValue(of: memberID, for: event.subscriber, households: households)
        }
    }
}
