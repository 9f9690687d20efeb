import Foundation
import GraphQL
import Testing

/// Sharing personal chores through the binary (FR-40 – FR-42): the mutations and reads the
/// end-to-end tests use.
extension ServerProcess {
    /// The fields of a share the tests read, with its chores (their instances are read by
    /// ``choreNode(_:as:)``: lists nested three deep would pass the complexity limit).
    static let shareFields = """
        id ownerName viewerIsOwner tag { id } tagName recipientEmail recipientName status recipientHousehold { id }
        chores { edges { node { id title viewerCanEdit tags { id } } } }
        """

    /// `shareChores` of `selection` with `recipient` as `person`; the share.
    @discardableResult
    func share(_ selection: [String: JSON], with recipient: [String: JSON], as person: Person) throws -> JSON {
        let response = try graphQL(
            "mutation($input: ShareChoresInput!) { shareChores(input: $input) { share { \(Self.shareFields) } } }",
            variables: Self.input(["selection": Self.input(selection)["input"] ?? .null, "recipient": Self.input(recipient)["input"] ?? .null]),
            token: person.token)
        return try #require(response.data?["shareChores"]?["share"], "\(response.json)")
    }

    /// `mutation` (`acceptShare`, `declineShare`, `revokeShare`) of share `shareID` as `person`.
    func answerShare(_ mutation: String, _ shareID: String, as person: Person) throws -> GraphQLResponse {
        let input = mutation.prefix(1).uppercased() + mutation.dropFirst() + "Input"
        return try graphQL(
            "mutation($input: \(input)!) { \(mutation)(input: $input) { clientMutationId } }",
            variables: Self.input(["shareId": .string(shareID)]), token: person.token)
    }

    /// The shares of `list` (`sharedWithMe`, `pendingChoreShares`, `myChoreShares`) as `person`.
    func shares(_ list: String, as person: Person) throws -> [JSON] {
        let response = try graphQL("{ \(list) { edges { node { \(Self.shareFields) } } } }", token: person.token)
        guard case .array(let edges)? = response.data?[list]?["edges"] else {
            Issue.record("\(list): \(response.json)")
            return []
        }
        return edges.compactMap { $0["node"] }
    }

    /// The titles of the chores of the shares `person` receives, by share.
    func sharedTitles(as person: Person) throws -> [[String]] {
        try shares("sharedWithMe", as: person).map { share in
            guard case .array(let edges)? = share["chores"]?["edges"] else { return [] }
            return edges.compactMap { $0["node"]?["title"]?.stringValue }
        }
    }

    /// `node(id:)` as `person`: a chore's fields and its instances' progress, or a tag's id, when
    /// they may see it; else null.
    func choreNode(_ id: String, as person: Person) throws -> JSON? {
        let response = try graphQL(
            """
            query($id: ID!) { node(id: $id) { ... on Chore { id title viewerCanEdit tags { id }
              instances { edges { node { id status completedAt completions { completedAt } } } } } ... on Tag { id } } }
            """,
            variables: ["id": .string(id)], token: person.token)
        guard let node = response.data?["node"], node != .null else { return nil }
        return node
    }
}
