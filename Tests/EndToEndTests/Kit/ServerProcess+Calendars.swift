import Foundation
import GraphQL
import Testing
import TestPython

/// Imported calendars through the binary.
extension ServerProcess {
    /// The fixture `tools/ics-oracle/fixtures/<name>.ics`.
    static func calendarFixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestPython.packageRoot.appendingPathComponent("tools/ics-oracle/fixtures/\(name).ics")))
    }

    /// `importCalendar` of `file` as `person`'s calendar `name`.
    func importCalendar(_ file: [UInt8], name: String, as person: Person) throws -> GraphQLResponse {
        try graphQLUpload(
            "mutation($input: ImportCalendarInput!) { importCalendar(input: $input) { calendar { id name eventCount createdAt importedAt } } }",
            input: ["name": .string(name)], file: file, token: person.token, field: "file")
    }

    /// `importedCalendarEvents(from:to:)` as `person`.
    func importedCalendarEvents(from: String, to: String, as person: Person) throws -> GraphQLResponse {
        try graphQL(
            """
            query($from: DateTime!, $to: DateTime!) { importedCalendarEvents(from: $from, to: $to) {
                eventId calendarId uid summary location startsAt endsAt allDay startDate endDate busy recurrenceId } }
            """, variables: ["from": .string(from), "to": .string(to)], token: person.token)
    }

    /// `importedCalendars` as `person`.
    func importedCalendars(as person: Person) throws -> JSON? {
        try graphQL("{ importedCalendars { id name eventCount } }", token: person.token).data?["importedCalendars"]
    }
}

extension JSON {
    /// The elements of an array; nil for any other value.
    var elements: [JSON]? {
        if case .array(let elements) = self { elements } else { nil }
    }
}

/// Calendar feeds through the binary.
extension ServerProcess {
    /// The fields of an `ImportedCalendar` the feed tests read.
    static let importedCalendarFields = """
        id name eventCount importedAt sourceUrl lastRefreshedAt lastRefreshError feedStatus nextRefreshAt skippedEvents { uid line reason }
        """

    /// `subscribeCalendarFeed` of `url` as `person`'s calendar `name`.
    func subscribeCalendarFeed(_ url: String, name: String? = nil, as person: Person) throws -> GraphQLResponse {
        var input: [String: JSON] = ["url": .string(url)]
        if let name { input["name"] = .string(name) }
        return try graphQL(
            "mutation($input: SubscribeCalendarFeedInput!) { subscribeCalendarFeed(input: $input) { calendar { \(Self.importedCalendarFields) } } }",
            variables: ServerProcess.input(input), token: person.token)
    }

    /// `refreshImportedCalendar` of `id` as `person`: the calendar after it.
    func refreshImportedCalendar(_ id: String, as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: RefreshImportedCalendarInput!) { refreshImportedCalendar(input: $input) { calendar { \(Self.importedCalendarFields) } } }",
            variables: ServerProcess.input(["id": .string(id)]), token: person.token)
    }

    /// `person`'s imported calendar `id`, read through `node(id:)`.
    func importedCalendar(_ id: String, as person: Person) throws -> JSON? {
        try graphQL(
            "query($id: ID!) { node(id: $id) { __typename ... on ImportedCalendar { \(Self.importedCalendarFields) } } }",
            variables: ["id": .string(id)], token: person.token
        ).data?["node"]
    }
}
