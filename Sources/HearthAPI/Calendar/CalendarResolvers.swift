import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of the calendar (FR-59) and availability events (FR-64) over
/// ``CalendarService`` and ``AvailabilityService``: `calendar`, `availabilityEvent`, and the
/// three availability event mutations.
enum CalendarResolvers {
    static func install(into resolvers: inout Resolvers, calendar: CalendarService, services: InstanceServices) {
        let availability = calendar.availability
        CalendarFeedResolvers.install(into: &resolvers, feeds: calendar.feeds)
        resolvers.resolveMutation("createAvailabilityEvent") { input, context in
            let draft = AvailabilityEventDraft(
                title: try input.requiredString("title"), startsAt: try InstanceInputs.date(input, "startsAt"),
                endsAt: try InstanceInputs.date(input, "endsAt"), startsOn: try input.day("startsOn"), endsOn: try input.day("endsOn"),
                timeZone: input.string("timeZone"), recurrence: input.string("recurrence"),
                availability: try input.optionalEnumValue("availability"), id: input.string("id"))
            let event = try await availability.createAvailabilityEvent(draft, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["availabilityEvent": AvailabilityEventValue(record: event)]
        }
        resolvers.resolveMutation("updateAvailabilityEvent") { input, context in
            let changes = AvailabilityEventChanges(
                title: input.string("title"), startsAt: try InstanceInputs.date(input, "startsAt"), endsAt: try InstanceInputs.date(input, "endsAt"),
                startsOn: try input.day("startsOn"), endsOn: try input.day("endsOn"), timeZone: input.string("timeZone"),
                recurrence: input.change("recurrence"), availability: try input.optionalEnumValue("availability"))
            let event = try await availability.updateAvailabilityEvent(
                id: try input.requiredString("availabilityEventId"), changes, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["availabilityEvent": AvailabilityEventValue(record: event)]
        }
        resolvers.resolveMutation("deleteAvailabilityEvent") { input, context in
            let id = try await availability.deleteAvailabilityEvent(
                id: try input.requiredString("availabilityEventId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["deletedAvailabilityEventId": id]
        }
        resolvers.resolveAsync("Query", "availabilityEvent") { _, arguments, context, _ in
            AvailabilityEventValue(record: try await availability.event(id: arguments.string("id") ?? "", viewer: try RequestContext.of(context).viewer()))
        }
        resolvers.resolveAsync("Query", "calendar") { _, arguments, context, _ in
            let from = try day(arguments, "from")
            let to = try day(arguments, "to")
            let view = try await calendar.calendar(
                from: from, to: to, householdID: arguments.string("householdId"), viewer: try RequestContext.of(context).viewer())
            return CalendarValue(view: view, from: from, to: to, services: services)
        }
    }

    /// The required `Date` argument `name` (the scalar has checked it).
    private static func day(_ arguments: Arguments, _ name: String) throws -> CalendarDay {
        guard let text = arguments.string(name), let day = CalendarDay(text) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(field: name, reason: .invalidFormat, message: "Write a day as YYYY-MM-DD.")]))
        }
        return day
    }

    /// The viewer's availability events among `ids`, for `node`/`nodes`.
    static func nodes(ids: [String], availability: AvailabilityService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer, !ids.isEmpty else { return [:] }
        return try await availability.events(ids: ids, viewer: viewer).mapValues { AvailabilityEventValue(record: $0) }
    }
}
