import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of calendars imported from .ics files and feeds (FR-61): `importCalendar`,
/// `subscribeCalendarFeed`, `refreshImportedCalendar`, `deleteImportedCalendar`,
/// `importedCalendars` and `importedCalendarEvents`, and the `ImportedCalendar` nodes.
enum ImportedCalendarResolvers {
    /// Installs the fields over `calendars`.
    static func install(into resolvers: inout Resolvers, calendars: ImportedCalendarService) {
        resolvers.resolveMutation("subscribeCalendarFeed") { input, context in
            let calendar = try await calendars.subscribeToFeed(
                url: input.string("url") ?? "", name: input.string("name"), for: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["calendar": ImportedCalendarValue(calendar: calendar)]
        }
        resolvers.resolveMutation("refreshImportedCalendar") { input, context in
            let calendar = try await calendars.refreshCalendar(id: try input.requiredString("id"), for: try context.viewer())
            return ["calendar": ImportedCalendarValue(calendar: calendar)]
        }
        resolvers.resolveMutation("importCalendar") { input, context in
            let viewer = try context.viewer()
            guard case .some(.some(let file)) = try input.upload("file", in: context.uploads) else {
                throw input.problem("file", .required, "Send the .ics file as a file of a multipart request (graphql-multipart-request-spec).")
            }
            let calendar = try await calendars.importCalendar(
                name: input.string("name") ?? "", file: file, for: viewer, clientMutationID: input.clientMutationID)
            return ["calendar": ImportedCalendarValue(calendar: calendar)]
        }
        resolvers.resolveMutation("deleteImportedCalendar") { input, context in
            let id = try input.requiredString("id")
            return ["deletedCalendarId": try await calendars.deleteCalendar(id: id, for: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
        resolvers.resolveAsync("Query", "importedCalendars") { _, _, context, _ in
            try await calendars.calendars(for: try RequestContext.of(context).viewer()).map(ImportedCalendarValue.init)
        }
        resolvers.resolveAsync("Query", "importedCalendarEvents") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            func date(_ name: String) throws -> Date {
                guard let date = arguments.string(name).flatMap(DateTimeScalar.date) else {
                    throw ServiceError.invalid(InputProblems([FieldProblem(field: name, reason: .invalidFormat, message: "Give an RFC 3339 date-time.")]))
                }
                return date
            }
            return try await calendars.importedEvents(for: viewer, from: try date("from"), to: try date("to")).map(ImportedEventValue.init)
        }
    }
}

extension ImportedCalendarResolvers {
    /// The `ImportedCalendar` nodes among `ids` the caller may see (their own).
    static func nodes(ids: [String], calendars: ImportedCalendarService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer, !ids.isEmpty else { return [:] }
        return try await calendars.calendars(ids: ids, for: viewer).mapValues { ImportedCalendarValue(calendar: $0) }
    }
}

/// An `ImportedCalendar` object.
struct ImportedCalendarValue: FieldResolvable, TypeNameResolvable, Sendable {
    let calendar: ImportedCalendar

    var graphQLTypeName: String { "ImportedCalendar" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": calendar.id
        case "name": calendar.name
        case "eventCount": calendar.eventCount
        case "createdAt": calendar.createdAt
        case "importedAt": calendar.importedAt
        case "sourceUrl": calendar.sourceURL
        case "lastRefreshedAt": calendar.lastRefreshedAt
        case "lastRefreshError": calendar.lastRefreshError
        case "feedStatus": calendar.sourceURL == nil ? nil : GraphQLEnum.name(of: calendar.feedStatus)
        case "nextRefreshAt": calendar.nextRefreshAt
        case "googleCalendarId": calendar.googleCalendarID
        case "skippedEvents": calendar.skippedEvents.map(SkippedEventValue.init)
        default: nil
        }
    }
}

/// A `SkippedCalendarEvent` object.
struct SkippedEventValue: FieldResolvable, Sendable {
    let event: SkippedCalendarEvent

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "uid": event.uid
        case "line": event.line
        case "reason": event.reason
        default: nil
        }
    }
}

/// An `ImportedCalendarEvent` object: one occurrence in the range asked for (also a `calendar` entry).
struct ImportedEventValue: FieldResolvable, TypeNameResolvable, Sendable {
    let imported: ImportedOccurrence

    var graphQLTypeName: String { "ImportedCalendarEvent" }

    func fieldValue(named name: String) -> Any? {
        let occurrence = imported.occurrence
        return switch name {
        case "eventId": imported.eventID
        case "calendarId": imported.calendarID
        case "uid": occurrence.uid
        case "summary": occurrence.summary
        case "location": occurrence.location
        case "startsAt": occurrence.start
        case "endsAt": occurrence.end
        case "allDay": occurrence.isAllDay
        case "startDate": occurrence.firstDay
        case "endDate": occurrence.endDay
        case "busy": occurrence.isBusy
        case "recurrenceId": occurrence.recurrenceID
        default: nil
        }
    }
}
