import Foundation
import GraphQL
import Testing
import TestPython

/// Chore instances through the binary: `myChores`, `completeChore`, `uncompleteChore`.
extension ServerProcess {
    /// The fields of an instance the end-to-end tests read.
    static let instanceFields = """
        id dueAt occurrenceAt status isPersonal isMaterialized completedAt chore { id title } household { id } member { id }
        steps { step { title } isDone isLocked } completions { id }
        """

    /// The fields of a completion the end-to-end tests read.
    static let completionFields = """
        id completedAt status isFinal choreTitle crossHousehold member { id displayName status } recordedBy { id } step { title position }
        """

    /// `myChores` as `person`, with `filter` and `first`.
    func myChores(as person: Person, filter: [String: JSON] = [:], first: Int = 100) throws -> GraphQLResponse {
        var object = OrderedMap<String, JSON>()
        for (key, value) in filter.sorted(by: { $0.key < $1.key }) { object[key] = value }
        return try graphQL(
            """
            query($filter: MyChoresFilter, $first: Int) { myChores(filter: $filter, first: $first) {
              edges { cursor node { \(Self.instanceFields) } } pageInfo { hasNextPage endCursor } } }
            """,
            variables: ["filter": .object(object), "first": .int(first)], token: person.token)
    }

    /// The instances of `myChores` as `person`.
    func myInstances(as person: Person, filter: [String: JSON] = [:]) throws -> [JSON] {
        let response = try myChores(as: person, filter: filter)
        guard case .array(let edges)? = response.data?["myChores"]?["edges"] else {
            Issue.record("myChores: \(response.json)")
            return []
        }
        return edges.compactMap { $0["node"] }
    }

    /// `completeChore` of `instanceID` as `person`, with `extra` input fields.
    func completeChore(_ instanceID: String, as person: Person, _ extra: [String: JSON] = [:]) throws -> GraphQLResponse {
        var input: [String: JSON] = ["instanceId": .string(instanceID)]
        input.merge(extra) { _, new in new }
        return try graphQL(
            """
            mutation($input: CompleteChoreInput!) { completeChore(input: $input) {
              outcome instance { \(Self.instanceFields) } completion { \(Self.completionFields) } activeHousehold { id } clientMutationId } }
            """,
            variables: Self.input(input), token: person.token)
    }

    /// `uncompleteChore` of `instanceID` as `person`.
    func uncompleteChore(_ instanceID: String, as person: Person) throws -> GraphQLResponse {
        try graphQL(
            """
            mutation($input: UncompleteChoreInput!) { uncompleteChore(input: $input) {
              instance { \(Self.instanceFields) } undoneCompletion { \(Self.completionFields) } } }
            """,
            variables: Self.input(["instanceId": .string(instanceID)]), token: person.token)
    }

    /// The README's derivation of an instance id, run in Python as an offline client would.
    static let instanceIDScript = """
        import hashlib, sys, uuid
        def instance_id(chore_id, occurrence_ms, member_id=""):
            d = hashlib.sha256(f"{chore_id}|{occurrence_ms}|{member_id}".encode()).digest()
            b = max(occurrence_ms, 0).to_bytes(6, "big") + bytes([0x80 | d[0] & 0x0F, d[1], 0x80 | d[2] & 0x3F]) + d[3:10]
            return "chi_" + str(uuid.UUID(bytes=b))
        print(instance_id(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else ""))
        """

    /// The id of the instance of `choreID` due at `dueAt` (RFC 3339) for `memberID`, derived in Python.
    static func derivedInstanceID(choreID: String, dueAt: String, memberID: String? = nil) throws -> String {
        let date = try #require(storedInstant(dueAt) ?? ISO8601DateFormatter().date(from: dueAt), "\(dueAt)")
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return try #require(try TestPython.runScript(instanceIDScript, [choreID, String(milliseconds)] + (memberID.map { [$0] } ?? [])).first)
    }
}
