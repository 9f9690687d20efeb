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
