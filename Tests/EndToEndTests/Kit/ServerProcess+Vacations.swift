import Foundation
import GraphQL
import Testing

/// Vacation mode through the binary: `startVacation`, `startHouseholdVacation`, `endVacation`,
/// `updateVacationSettings`, and what a vacation shows on members and instances.
extension ServerProcess {
    /// The fields of a vacation the end-to-end tests read.
    static let vacationFields = "id status handling startsAt endsAt startedAt endedAt member { id displayName } destination { id }"

    /// `startVacation` with `input` as `person`.
    func startVacation(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: StartVacationInput!) { startVacation(input: $input) { vacations { \(Self.vacationFields) } household { id } } }",
            variables: Self.input(input), token: person.token)
    }

    /// `startHouseholdVacation` with `input` as `person`.
    func startHouseholdVacation(_ input: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: StartHouseholdVacationInput!) { startHouseholdVacation(input: $input) { vacations { \(Self.vacationFields) } } }",
            variables: Self.input(input), token: person.token)
    }

    /// `endVacation` of `memberIDs` in `householdID` as `person`.
    func endVacation(_ householdID: String, _ memberIDs: [String], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: EndVacationInput!) { endVacation(input: $input) { vacations { \(Self.vacationFields) } } }",
            variables: Self.input(["householdId": .string(householdID), "memberIds": .array(memberIDs.map(JSON.string))]), token: person.token)
    }

    /// `Member.vacation` of `memberID` as `person` sees it (`null` without one).
    func vacation(of memberID: String, as person: Person) throws -> JSON {
        let response = try graphQL(
            "query($id: ID!) { node(id: $id) { ... on Member { vacation { \(Self.vacationFields) } } } }",
            variables: ["id": .string(memberID)], token: person.token)
        #expect(response.json["errors"] == nil, "\(response.json)")
        return response.data?["node"]?["vacation"] ?? .null
    }

    /// Instance `id` as `person` sees it: `id status pausedAt reassignedTo { id } completedAt`.
    func instance(_ id: String, as person: Person) throws -> JSON {
        let response = try graphQL(
            "query($id: ID!) { node(id: $id) { ... on ChoreInstance { id status pausedAt reassignedTo { id } completedAt } } }",
            variables: ["id": .string(id)], token: person.token)
        #expect(response.json["errors"] == nil, "\(response.json)")
        return response.data?["node"] ?? .null
    }

    /// The id of `person`'s active household.
    func activeHouseholdID(of person: Person) throws -> String? {
        try graphQL("{ activeHousehold { id } }", token: person.token).data?["activeHousehold"]?["id"]?.stringValue
    }

    /// The stored instance ids of chore `choreID`, by due time.
    func storedInstanceIDs(of choreID: String) throws -> [String] {
        try databaseColumn("SELECT id FROM chore_instances WHERE chore_id = '\(choreID)' ORDER BY due_at, id")
    }

    /// Waits until every job due at the server's clock has run (`--test-endpoints`).
    func waitForDueJobs() throws {
        let answer = try get("/_test/jobs/idle")
        #expect(answer.text == "idle", "the jobs did not finish: \(answer.text)")
    }
}

extension ServerProcess.GraphQLResponse {
    /// The first error's `extensions.field`: the input path of a `BAD_USER_INPUT`.
    var errorField: String? { json["errors"]?[0]?["extensions"]?["field"]?.stringValue }
}
