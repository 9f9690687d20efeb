import Foundation
import GraphQL
import Testing

/// The calendar and availability events through the binary: the operations' documents and helpers.
extension ServerProcess {
    /// The fields of `AvailabilityEvent` the tests read.
    static let availabilityFields =
        "id title availability isAllDay startsAt endsAt startsOn endsOn timeZone recurrence sequence"

    /// `createAvailabilityEvent` with `input` as `person`, the raw response.
    func createAvailabilityEvent(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: CreateAvailabilityEventInput!) { createAvailabilityEvent(input: $input) { availabilityEvent { \(Self.availabilityFields) } clientMutationId } }",
            variables: Self.input(input), token: person.token)
    }

    /// Creates an availability event with `input` as `person`; returns it.
    func availabilityEvent(_ input: [String: JSON], as person: Person) throws -> JSON {
        let created = try createAvailabilityEvent(input, as: person)
        return try #require(created.data?["createAvailabilityEvent"]?["availabilityEvent"], "\(created.json)")
    }

    /// `updateAvailabilityEvent` with `input` as `person`, the raw response.
    func updateAvailabilityEvent(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: UpdateAvailabilityEventInput!) { updateAvailabilityEvent(input: $input) { availabilityEvent { \(Self.availabilityFields) } } }",
            variables: Self.input(input), token: person.token)
    }

    /// `deleteAvailabilityEvent` of `id` as `person`, the raw response.
    func deleteAvailabilityEvent(_ id: String, as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: DeleteAvailabilityEventInput!) { deleteAvailabilityEvent(input: $input) { deletedAvailabilityEventId } }",
            variables: Self.input(["availabilityEventId": .string(id)]), token: person.token)
    }

    /// `calendar(from:to:householdId:)` as `person`, the raw response; each day's entries read as
    /// `date`, the entry's type, a title (the chore's or the event's) and its start.
    func calendarResponse(from: String, to: String, householdID: String? = nil, as person: Person) throws -> GraphQLResponse {
        var variables: [String: JSON] = ["from": .string(from), "to": .string(to)]
        if let householdID { variables["householdId"] = .string(householdID) }
        return try graphQL(
            """
            query($from: Date!, $to: Date!, $householdId: ID) { calendar(from: $from, to: $to, householdId: $householdId) {
              timeZone householdId days { date entries { __typename
                ... on ChoreInstance { id dueAt chore { title } }
                ... on ReminderOccurrence { firesAt before choreInstance { id chore { title } } }
                ... on AvailabilityOccurrence { startsAt endsAt startsOn endsOn isAllDay event { title } }
                ... on ImportedCalendarEvent { summary startsAt endsAt busy } } } } }
            """, variables: variables, token: person.token)
    }

    /// The calendar as lines `<date> <title> <start>` (a chore's due time, an event's start), in
    /// the answer's order; with `reminders`, a reminder as `<date> reminder <before> <title> <firing time>`
    /// (left out otherwise: most chores have the one at due time).
    func calendarLines(from: String, to: String, householdID: String? = nil, reminders: Bool = false, as person: Person) throws -> [String] {
        let response = try calendarResponse(from: from, to: to, householdID: householdID, as: person)
        guard case .array(let days)? = response.data?["calendar"]?["days"] else {
            Issue.record("no calendar: \(response.json)")
            return []
        }
        return days.flatMap { day -> [String] in
            guard case .array(let entries)? = day["entries"] else { return [] }
            return entries.compactMap { entry in
                if let firesAt = entry["firesAt"]?.stringValue {
                    guard reminders else { return nil }
                    let title = entry["choreInstance"]?["chore"]?["title"]?.stringValue ?? "?"
                    return "\(day["date"]?.stringValue ?? "?") reminder \(entry["before"]?.stringValue ?? "?") \(title) \(firesAt)"
                }
                let title = entry["chore"]?["title"]?.stringValue ?? entry["event"]?["title"]?.stringValue ?? entry["summary"]?.stringValue ?? "?"
                let start = entry["dueAt"]?.stringValue ?? entry["startsAt"]?.stringValue ?? "?"
                return "\(day["date"]?.stringValue ?? "?") \(title) \(start)"
            }
        }
    }
}
