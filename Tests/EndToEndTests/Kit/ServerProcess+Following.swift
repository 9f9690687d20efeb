import Foundation
import GraphQL
import Testing

/// Following through the binary (US 05, US 06.03): the mutations and reads the end-to-end tests use.
extension ServerProcess {
    /// The fields of a follow the tests read: both users' public profile and what must stay hidden.
    static let followFields = """
        id status requestedAt acceptedAt follower { id username displayName avatarUrl email isEmailConfirmed timeZone }
        followed { id username displayName avatarUrl email isEmailConfirmed timeZone }
        """

    /// `requestFollow` of `username` as `person`.
    func requestFollow(_ username: String, as person: Person, clientMutationID: String? = nil) throws -> GraphQLResponse {
        var input: [String: JSON] = ["username": .string(username)]
        if let clientMutationID { input["clientMutationId"] = .string(clientMutationID) }
        return try graphQL(
            "mutation($input: RequestFollowInput!) { requestFollow(input: $input) { follow { \(Self.followFields) } clientMutationId } }",
            variables: Self.input(input), token: person.token)
    }

    /// `mutation` (`acceptFollowRequest`, `declineFollowRequest`, `unfollow`, `removeFollower`) of
    /// follow `followID` as `person`.
    func answerFollow(_ mutation: String, _ followID: String, as person: Person) throws -> GraphQLResponse {
        let input = mutation.prefix(1).uppercased() + mutation.dropFirst() + "Input"
        return try graphQL(
            "mutation($input: \(input)!) { \(mutation)(input: $input) { clientMutationId } }",
            variables: Self.input(["followId": .string(followID)]), token: person.token)
    }

    /// `follower` asks to follow `followed`, who accepts; the follow's id.
    @discardableResult
    func follow(_ followed: Person, by follower: Person) throws -> String {
        let requested = try requestFollow(followed.username, as: follower)
        let id = try #require(requested.data?["requestFollow"]?["follow"]?["id"]?.stringValue, "\(requested.json)")
        let accepted = try answerFollow("acceptFollowRequest", id, as: followed)
        try #require(accepted.errorCode == nil, "\(accepted.json)")
        return id
    }

    /// The follows of `list` (`followers`, `following`, `followRequests`, `sentFollowRequests`) as `person`.
    func follows(_ list: String, as person: Person) throws -> [JSON] {
        let response = try graphQL("{ \(list) { edges { node { \(Self.followFields) } } } }", token: person.token)
        guard case .array(let edges)? = response.data?[list]?["edges"] else {
            Issue.record("\(list): \(response.json)")
            return []
        }
        return edges.compactMap { $0["node"] }
    }
}
