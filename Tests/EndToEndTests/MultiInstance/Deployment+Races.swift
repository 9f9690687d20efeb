import Foundation
import GraphQL
import Testing

/// What the races of ``ConcurrentInstancesPostgresTests`` share: households set up through the
/// first instance, the answers' tallies and the database counts that judge them.
extension Deployment {
    /// A household and its people, set up through instance A.
    struct RaceHousehold {
        /// The household's id.
        let id: String
        /// The people who race, in order: the creator first.
        let people: [ServerProcess.Person]
        /// Their member ids, in the same order.
        let memberIDs: [String]
    }

    /// `people` (registered already) in a new household created by the first of them; the others
    /// join with `role`, and `bystanders` join as plain members without racing.
    func household(
        _ name: String, of people: [ServerProcess.Person], role: String = "MEMBER", bystanders: [ServerProcess.Person] = []
    ) throws -> RaceHousehold {
        let server = instances[0]
        let (householdID, creatorID) = try server.createHousehold(name, as: people[0])
        var memberIDs = [creatorID]
        for person in people.dropFirst() {
            memberIDs.append(try server.join(person, householdID, role: role, invitedBy: people[0]))
        }
        for person in bystanders { try server.join(person, householdID, invitedBy: people[0]) }
        return RaceHousehold(id: householdID, people: people, memberIDs: memberIDs)
    }

    /// The instances to spread clients over, shareable with their threads: each ``ServerProcess``
    /// call a client makes opens its own connection and reads only the server's port.
    var clientTargets: Targets { Targets(instances: instances) }

    /// ``instances`` for client threads (see ``clientTargets``).
    struct Targets: @unchecked Sendable {
        /// The instances; a client calls only methods that read their ports.
        let instances: [ServerProcess]

        /// The instance client `index` talks to: A, B, A, B, …
        func instance(for index: Int) -> ServerProcess { instances[index % instances.count] }
    }

    /// The number `sql` counts in the shared database.
    func count(_ sql: String) throws -> Int {
        let text = try instances[0].databaseText("SELECT CAST((\(sql)) AS TEXT)")
        return try #require(text.flatMap { Int($0) }, "\(sql): \(text ?? "no row")")
    }
}

extension [Result<ServerProcess.GraphQLResponse, any Error>] {
    /// The answers, recording an issue for a client that got none (a transport error).
    func answers(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [ServerProcess.GraphQLResponse] {
        compactMap { outcome in
            switch outcome {
            case .success(let answer): return answer
            case .failure(let error):
                Issue.record("a client got no answer: \(error)", sourceLocation: sourceLocation)
                return nil
            }
        }
    }
}

extension ServerProcess.GraphQLResponse {
    /// `code` or `code/reason` of the first error, `ok` without one: what a tally counts.
    var ending: String {
        guard let code = errorCode else { return "ok" }
        return errorReason.map { "\(code)/\($0)" } ?? code
    }
}

extension Sequence where Element == ServerProcess.GraphQLResponse {
    /// How many answers ended each way (``ServerProcess/GraphQLResponse/ending``).
    var tally: [String: Int] { reduce(into: [:]) { $0[$1.ending, default: 0] += 1 } }
}
