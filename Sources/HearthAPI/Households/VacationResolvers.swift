import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// A `Vacation` of `schema.graphql`: the record and its member's value (with the viewer's access).
struct VacationValue: Sendable, FieldResolvable {
    let record: VacationRecord
    let member: MemberValue

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "member": member
        case "startsAt": record.startsAt
        case "endsAt": record.endsAt
        case "handling": GraphQLEnum.name(of: record.handling)
        case "status": GraphQLEnum.name(of: record.status)
        case "startedAt": record.startedAt
        case "endedAt": record.endedAt
        default: nil
        }
    }
}

/// The resolvers of vacation mode (FR-19 – FR-24) over ``VacationService``: the mutations,
/// `Member.vacation`, `Vacation.destination` and `Household.reclaimRedistributedOnReturn`.
enum VacationResolvers {
    static func install(into resolvers: inout Resolvers, vacations: VacationService) {
        let households = vacations.instances.chores.households
        resolvers.resolveMutation("startVacation") { input, context in
            payload(
                try await vacations.startVacation(
                    householdID: try input.requiredString("householdId"), memberIDs: input.strings("memberIds") ?? [], try request(input),
                    viewer: try context.viewer(), clientMutationID: input.clientMutationID))
        }
        resolvers.resolveMutation("startHouseholdVacation") { input, context in
            payload(
                try await vacations.startHouseholdVacation(
                    householdID: try input.requiredString("householdId"), try request(input), viewer: try context.viewer(),
                    clientMutationID: input.clientMutationID))
        }
        resolvers.resolveMutation("endVacation") { input, context in
            payload(
                try await vacations.endVacation(
                    householdID: try input.requiredString("householdId"), memberIDs: input.strings("memberIds") ?? [],
                    viewer: try context.viewer(), clientMutationID: input.clientMutationID))
        }
        resolvers.resolveMutation("updateVacationSettings") { input, context in
            let (record, access) = try await vacations.updateVacationSettings(
                householdID: try input.requiredString("householdId"),
                reclaimRedistributedOnReturn: input.bool("reclaimRedistributedOnReturn") ?? false, viewer: try context.viewer(),
                clientMutationID: input.clientMutationID)
            return ["household": HouseholdValue(record: record, access: access)]
        }
        resolvers.resolveAsync("Member", "vacation") { source, _, context, _ in
            let member = source as! MemberValue
            let found = try await vacations.currentVacations(
                memberIDs: [member.record.id], householdID: member.record.householdID, viewer: try RequestContext.of(context).viewer())
            return found[member.record.id].map { VacationValue(record: $0, member: member) }
        }
        resolvers.resolveAsync("Vacation", "destination") { source, _, context, _ in
            guard let id = (source as! VacationValue).record.destinationHouseholdID else { return nil }
            do {
                let (record, access) = try await households.household(id: id, viewer: try RequestContext.of(context).viewer())
                return HouseholdValue(record: record, access: access)
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
        }
        resolvers.resolveAsync("Household", "reclaimRedistributedOnReturn") { source, _, context, _ in
            try await vacations.reclaimsRedistributedOnReturn(
                householdID: (source as! HouseholdValue).record.id, viewer: try RequestContext.of(context).viewer())
        }
    }

    /// The `VacationRequest` of a start's input.
    private static func request(_ input: MutationInput) throws -> VacationRequest {
        VacationRequest(
            startsAt: try InstanceInputs.date(input, "startsAt"), endsAt: try InstanceInputs.date(input, "endsAt"),
            handling: try input.enumValue("handling"), destinationHouseholdID: input.string("destinationHouseholdId"))
    }

    /// A start's or end's payload: the vacations, each with its member, and the household.
    private static func payload(_ outcome: VacationService.Outcome) -> [String: any Sendable] {
        let access = outcome.household.access
        let vacations = outcome.vacations.compactMap { vacation in
            outcome.members[vacation.memberID].map { VacationValue(record: vacation, member: MemberValue(record: $0, access: access)) }
        }
        return ["vacations": vacations, "household": HouseholdValue(record: outcome.household.record, access: access)]
    }
}
