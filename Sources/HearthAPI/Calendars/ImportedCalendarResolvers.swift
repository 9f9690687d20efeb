import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of calendars imported from .ics files (FR-61): `importCalendar`,
/// `deleteImportedCalendar`, `importedCalendars` and `importedCalendarEvents`.
enum ImportedCalendarResolvers {
    /// Installs the four fields over `calendars`.
    static func install(into resolvers: inout Resolvers, calendars: ImportedCalendarService) {
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

/// An `ImportedCalendar` object.
struct ImportedCalendarValue: FieldResolvable, Sendable {
    let calendar: ImportedCalendar

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": calendar.id
        case "name": calendar.name
        case "eventCount": calendar.eventCount
        case "createdAt": calendar.createdAt
        case "importedAt": calendar.importedAt
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
