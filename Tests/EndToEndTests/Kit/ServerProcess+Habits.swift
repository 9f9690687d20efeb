import Foundation
import GraphQL
import Testing

/// Habits and habit events through the binary, for the end-to-end tests of issue 16.
extension ServerProcess {
    /// The fields of a `Habit` the tests read.
    static let habitFields = "id title reason startsOn plan visibility owner { id username email } createdAt updatedAt"
    /// The fields of a `HabitEvent` the tests read.
    static let habitEventFields = """
        id habit { id title } occurredOn recordedAt comment photo { url mediaType width height byteCount }
        location { latitude longitude accuracyMeters }
        """

    /// Ana, Ben and Cara, signed up: the owner, a follower-to-be and a stranger of the habit tests.
    func habitPeople() throws -> (ana: Person, ben: Person, cara: Person) {
        (try person("ana"), try person("ben"), try person("cara"))
    }

    /// `createHabit` as `person` with `fields` (a title, a start and a plan by default).
    func createHabit(_ fields: [String: JSON] = [:], as person: Person) throws -> GraphQLResponse {
        let defaults: [String: JSON] = ["title": "Run", "reason": "Feel better", "startsOn": "2026-01-05", "plan": ["MONDAY", "THURSDAY"]]
        return try graphQL(
            "mutation($input: CreateHabitInput!) { createHabit(input: $input) { habit { \(Self.habitFields) } clientMutationId } }",
            variables: Self.input(defaults.merging(fields) { _, new in new }), token: person.token)
    }

    /// The id of a new habit of `person`'s titled `title`.
    func habit(_ title: String, as person: Person, _ fields: [String: JSON] = [:]) throws -> String {
        let created = try createHabit(fields.merging(["title": .string(title)]) { _, new in new }, as: person)
        return try #require(created.data?["createHabit"]?["habit"]?["id"]?.stringValue, "\(created.json)")
    }

    /// `recordHabitEvent` as `person` with `fields` (`habitId` and whatever else).
    func recordHabitEvent(_ fields: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { habitEvent { \(Self.habitEventFields) } } }",
            variables: Self.input(fields), token: person.token)
    }

    /// The id of a new event of `habitID` recorded by `person`.
    func habitEvent(of habitID: String, as person: Person, _ fields: [String: JSON] = [:]) throws -> String {
        let recorded = try recordHabitEvent(fields.merging(["habitId": .string(habitID)]) { _, new in new }, as: person)
        return try #require(recorded.data?["recordHabitEvent"]?["habitEvent"]?["id"]?.stringValue, "\(recorded.json)")
    }

    /// `updateHabitEvent` as `person` with `fields`.
    func updateHabitEvent(_ fields: [String: JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(
            "mutation($input: UpdateHabitEventInput!) { updateHabitEvent(input: $input) { habitEvent { \(Self.habitEventFields) } } }",
            variables: Self.input(fields), token: person.token)
    }

    /// `habitHistory` as `person`: the response, with `filter`, `first` and `after` when given.
    func habitHistory(_ filter: [String: JSON] = [:], first: Int? = nil, after: String? = nil, as person: Person) throws -> GraphQLResponse {
        var variables: [String: JSON] = ["filter": Self.input(filter)["input"]!]
        if let first { variables["first"] = .int(first) }
        if let after { variables["after"] = .string(after) }
        return try graphQL(
            """
            query($filter: HabitHistoryFilter, $first: Int, $after: String) {
              habitHistory(filter: $filter, first: $first, after: $after) {
                edges { cursor node { \(Self.habitEventFields) } } pageInfo { hasNextPage hasPreviousPage endCursor } totalCount
              }
            }
            """,
            variables: variables, token: person.token)
    }

    /// The comments of `person`'s history with `filter`, newest first (null comments as "").
    func historyComments(_ filter: [String: JSON] = [:], as person: Person) throws -> [String] {
        let history = try habitHistory(filter, as: person)
        guard case .array(let edges)? = history.data?["habitHistory"]?["edges"] else {
            Issue.record("no history: \(history.json)")
            return []
        }
        return edges.map { $0["node"]?["comment"]?.stringValue ?? "" }
    }

    /// Makes `follower` an accepted follower of `followed`, straight in the database (the
    /// following mutations are another part of issue 16).
    func acceptedFollow(of followed: Person, by follower: Person) throws {
        try databaseWrite(
            """
            INSERT INTO follows (id, follower_id, followed_id, status, requested_at, accepted_at)
            VALUES ('fol_\(UUID().uuidString.lowercased())', '\(follower.userID)', '\(followed.userID)', 'accepted',
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
            """)
    }

    /// A GraphQL multipart request (graphql-multipart-request-spec) of the mutation `query` with
    /// the variable `input` holding `input`, where `file` is sent as `input.<field>` (`photo`).
    func graphQLUpload(_ query: String, input: [String: JSON], file: [UInt8], token: String, field: String = "photo") throws -> GraphQLResponse {
        let boundary = "----hearthHabits7MA4YWxk"
        let operations = JSON.object(["query": .string(query), "variables": ["input": Self.input(input.merging([field: .null]) { _, new in new })["input"]!]]).serialized()
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n".utf8) + operations
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"map\"\r\n\r\n{\"0\": [\"variables.input.\(field)\"]}\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"0\"; filename=\"photo\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += file + Array("\r\n--\(boundary)--\r\n".utf8)
        let client = try connect()
        defer { client.close() }
        let head = "POST /graphql HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Authorization: Bearer \(token)\r\nApollo-Require-Preflight: true\r\nContent-Length: \(body.count)\r\n\r\n"
        try client.send(Array(head.utf8) + body)
        let response = try client.readResponse()
        return GraphQLResponse(status: response.status, json: try JSON(parsing: response.body))
    }
}
