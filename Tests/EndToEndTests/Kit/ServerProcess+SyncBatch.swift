import Foundation
import GraphQL
import HearthHTTP

/// `syncBatch` through the binary, for the end-to-end tests of issue 17.
extension ServerProcess {
    /// The `syncBatch` document the tests send.
    static let syncBatchDocument = "mutation($input: SyncBatchInput!) { syncBatch(input: $input) { results { index isSuccess response } } }"

    /// One entry of a batch: `operation` with `variables`.
    static func batchEntry(_ operation: String, _ variables: [String: JSON] = [:]) -> JSON {
        var map = OrderedMap<String, JSON>()
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { map[name] = value }
        return ["operation": .string(operation), "variables": .object(map)]
    }

    /// An entry recording an event of `habitID` with the client-made id `eventID`, remembered under
    /// `clientMutationID`.
    static func eventEntry(_ habitID: String, eventID: String, comment: String, clientMutationID: String) -> JSON {
        batchEntry(
            "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { habitEvent { id comment } } }",
            input(["habitId": .string(habitID), "id": .string(eventID), "comment": .string(comment), "clientMutationId": .string(clientMutationID)]))
    }

    /// An entry creating a habit titled `title` with the client-made id `habitID`.
    static func habitEntry(_ habitID: String, title: String, clientMutationID: String) -> JSON {
        batchEntry(
            "mutation($input: CreateHabitInput!) { createHabit(input: $input) { habit { id title } } }",
            input([
                "id": .string(habitID), "title": .string(title), "startsOn": "2026-01-05", "plan": ["MONDAY"],
                "clientMutationId": .string(clientMutationID),
            ]))
    }

    /// Sends `entries` as one `syncBatch` of `person`'s.
    func syncBatch(_ entries: [JSON], as person: Person) throws -> GraphQLResponse {
        try graphQL(Self.syncBatchDocument, variables: Self.input(["mutations": .array(entries)]), token: person.token)
    }

    /// The results of a `syncBatch` response (empty when it has none).
    static func batchResults(_ response: GraphQLResponse) -> [JSON] {
        if case .array(let results)? = response.data?["syncBatch"]?["results"] { results } else { [] }
    }

    /// Sends `entries` as a `syncBatch` of `person`'s on a new connection without waiting for the
    /// answer: the connection, to close once the test is done with it.
    func sendSyncBatch(_ entries: [JSON], as person: Person) throws -> HTTPTestClient {
        var writer = JSONWriter()
        writer.value(["query": .string(Self.syncBatchDocument), "variables": .object(["input": ["mutations": .array(entries)]])])
        let body = writer.takeBytes()
        var head = "POST /graphql HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\nContent-Type: application/json\r\n"
        head += "Accept: application/graphql-response+json\r\nContent-Length: \(body.count)\r\nAuthorization: Bearer \(person.token)\r\n\r\n"
        let client = try connect()
        try client.send(Array(head.utf8) + body)
        return client
    }
}
