import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of Google Calendar connections (FR-62): `startGoogleCalendarConnection`,
/// `completeGoogleCalendarConnection`, `selectGoogleCalendars`, `exportChoresToGoogleCalendar`,
/// `disconnectGoogleCalendar`, `googleCalendarConnection` and `googleCalendars`, and the
/// `GoogleCalendarConnection` nodes.
enum GoogleCalendarResolvers {
    /// Installs the fields over `google`.
    static func install(into resolvers: inout Resolvers, google: GoogleCalendarService) {
        resolvers.resolveMutation("startGoogleCalendarConnection") { input, context in
            let start = try await google.startConnection(for: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["authorizationUrl": start.authorizationURL, "expiresAt": start.expiresAt]
        }
        resolvers.resolveMutation("completeGoogleCalendarConnection") { input, context in
            let viewer = try context.viewer()
            let connection = try await google.completeConnection(
                code: try input.requiredString("code"), state: try input.requiredString("state"), for: viewer, clientMutationID: input.clientMutationID)
            return ["connection": GoogleConnectionValue(connection: connection)]
        }
        resolvers.resolveMutation("selectGoogleCalendars") { input, context in
            let calendars = try await google.selectCalendars(
                input.strings("calendarIds") ?? [], for: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["calendars": calendars.map(GoogleCalendarValue.init)]
        }
        resolvers.resolveMutation("exportChoresToGoogleCalendar") { input, context in
            let connection = try await google.exportChores(
                to: input.string("calendarId"), includeHouseholdChores: input.bool("includeHouseholdChores") ?? false, for: try context.viewer(),
                clientMutationID: input.clientMutationID)
            return ["connection": GoogleConnectionValue(connection: connection)]
        }
        resolvers.resolveMutation("disconnectGoogleCalendar") { input, context in
            ["disconnected": try await google.disconnect(for: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
        resolvers.resolveAsync("Query", "googleCalendarConnection") { _, _, context, _ in
            try await google.connection(for: try RequestContext.of(context).viewer()).map(GoogleConnectionValue.init)
        }
        resolvers.resolveAsync("Query", "googleCalendars") { _, _, context, _ in
            try await google.googleCalendars(for: try RequestContext.of(context).viewer()).map(GoogleCalendarValue.init)
        }
    }

    /// The `GoogleCalendarConnection` nodes among `ids` the caller may see (their own).
    static func nodes(ids: [String], google: GoogleCalendarService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer, !ids.isEmpty else { return [:] }
        return try await google.connections(ids: ids, for: viewer).mapValues { GoogleConnectionValue(connection: $0) }
    }
}

/// A `GoogleCalendarConnection` object.
struct GoogleConnectionValue: FieldResolvable, TypeNameResolvable, Sendable {
    let connection: GoogleConnection

    var graphQLTypeName: String { "GoogleCalendarConnection" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": connection.id
        case "status": GraphQLEnum.name(of: connection.status)
        case "connectedAt": connection.createdAt
        case "updatedAt": connection.updatedAt
        case "lastError": connection.lastError
        case "exportCalendarId": connection.exportCalendarID
        case "exportsHouseholdChores": connection.exportsHouseholdChores
        default: nil
        }
    }
}

/// A `GoogleCalendar` object.
struct GoogleCalendarValue: FieldResolvable, Sendable {
    let calendar: GoogleCalendarListEntry

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": calendar.id
        case "summary": calendar.summary
        case "primary": calendar.isPrimary
        case "accessRole": calendar.accessRole
        case "selected": calendar.isSelected
        case "importedCalendar": calendar.importedCalendar.map(ImportedCalendarValue.init)
        default: nil
        }
    }
}
