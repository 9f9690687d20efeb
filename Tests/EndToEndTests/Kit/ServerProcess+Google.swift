import Foundation
import GraphQL
import HearthHTTP
import Testing

/// Google Calendar connections through the binary.
extension ServerProcess {
    /// The fields of a `GoogleCalendarConnection` the tests read.
    static let googleConnectionFields = "id status connectedAt lastError exportCalendarId exportsHouseholdChores"

    /// The `clientMutationId` field of an input, when `id` is given.
    private static func replay(_ id: String?) -> [String: JSON] {
        id.map { ["clientMutationId": .string($0)] } ?? [:]
    }

    /// `startGoogleCalendarConnection` as `person` (with `clientMutationId` `replayID`, if any).
    func startGoogleCalendarConnection(as person: Person, replayID: String? = nil) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: StartGoogleCalendarConnectionInput) { startGoogleCalendarConnection(input: $input) { authorizationUrl expiresAt } }",
            variables: ServerProcess.input(Self.replay(replayID)), token: person.token)
    }

    /// `completeGoogleCalendarConnection` with `code` and `state` as `person`.
    func completeGoogleCalendarConnection(code: String, state: String, as person: Person, replayID: String? = nil) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: CompleteGoogleCalendarConnectionInput!) { completeGoogleCalendarConnection(input: $input) { connection { \(Self.googleConnectionFields) } } }",
            variables: ServerProcess.input(["code": .string(code), "state": .string(state)].merging(Self.replay(replayID)) { $1 }), token: person.token)
    }

    /// `person`'s `googleCalendarConnection`.
    func googleCalendarConnection(of person: Person) throws -> JSON? {
        try graphQL("{ googleCalendarConnection { \(Self.googleConnectionFields) } }", token: person.token).data?["googleCalendarConnection"]
    }

    /// `googleCalendars` as `person`.
    func googleCalendars(as person: Person) throws -> GraphQLResponse {
        try graphQL("{ googleCalendars { id summary primary accessRole selected importedCalendar { id name googleCalendarId } } }", token: person.token)
    }

    /// `selectGoogleCalendars` of `ids` as `person`.
    func selectGoogleCalendars(_ ids: [String], as person: Person, replayID: String? = nil) throws -> GraphQLResponse {
        try graphQL(
            """
            mutation($input: SelectGoogleCalendarsInput!) { selectGoogleCalendars(input: $input) {
                calendars { id selected importedCalendar { id name eventCount lastRefreshError googleCalendarId skippedEvents { uid reason } } } } }
            """, variables: ServerProcess.input(["calendarIds": .array(ids.map { .string($0) })].merging(Self.replay(replayID)) { $1 }), token: person.token)
    }

    /// `exportChoresToGoogleCalendar` to `calendarID` as `person`.
    func exportChoresToGoogleCalendar(
        _ calendarID: String?, includeHouseholdChores: Bool = false, as person: Person, replayID: String? = nil
    ) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: ExportChoresToGoogleCalendarInput!) { exportChoresToGoogleCalendar(input: $input) { connection { \(Self.googleConnectionFields) } } }",
            variables: ServerProcess.input([
                "calendarId": calendarID.map { .string($0) } ?? .null, "includeHouseholdChores": .bool(includeHouseholdChores),
            ].merging(Self.replay(replayID)) { $1 }), token: person.token)
    }

    /// `disconnectGoogleCalendar` as `person`.
    func disconnectGoogleCalendar(as person: Person, replayID: String? = nil) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: DisconnectGoogleCalendarInput) { disconnectGoogleCalendar(input: $input) { disconnected } }",
            variables: ServerProcess.input(Self.replay(replayID)), token: person.token)
    }

    /// Connects `person`'s Google account at `google`: starts, consents, and completes through the
    /// redirect page (`GET /oauth/google/callback`); returns the page's response.
    @discardableResult
    func connectGoogle(_ google: LoopbackGoogleCalendar, as person: Person) throws -> HTTPTestClient.Response {
        let started = try startGoogleCalendarConnection(as: person)
        let url = try #require(started.data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue, "\(started.json)")
        let (code, state, _) = try google.consent(to: url)
        return try get("/oauth/google/callback?code=\(Self.queryValue(code))&state=\(Self.queryValue(state))")
    }

    /// `text` as a query value.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
