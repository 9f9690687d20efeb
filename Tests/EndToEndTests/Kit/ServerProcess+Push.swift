import Foundation
import GraphQL
import HearthHTTP
import Testing

/// Web Push through the binary (issue 18): the mutations, reads and test endpoint the tests use.
extension ServerProcess {
    /// `registerPushSubscription` of `endpoint` with `keys` as `person`.
    func registerPush(
        _ endpoint: String, p256dh: String, auth: String, as person: Person, clientMutationID: String? = nil
    ) throws -> GraphQLResponse {
        var input: [String: JSON] = ["endpoint": .string(endpoint), "keys": ["p256dh": .string(p256dh), "auth": .string(auth)]]
        if let clientMutationID { input["clientMutationId"] = .string(clientMutationID) }
        return try graphQL(
            """
            mutation($input: RegisterPushSubscriptionInput!) {
              registerPushSubscription(input: $input) { pushSubscription { id endpoint createdAt updatedAt } clientMutationId }
            }
            """,
            variables: Self.input(input), token: person.token)
    }

    /// Registers `endpoint` of `service` as `person`; the subscription's id.
    func registerPush(_ endpoint: String, of service: LoopbackPushService, as person: Person) throws -> String {
        let registered = try registerPush(endpoint, p256dh: service.p256dh, auth: service.auth, as: person)
        return try #require(registered.data?["registerPushSubscription"]?["pushSubscription"]?["id"]?.stringValue, "\(registered.json)")
    }

    /// The ids of `person`'s push subscriptions.
    func pushSubscriptionIDs(of person: Person) throws -> [String] {
        let response = try graphQL("{ pushSubscriptions { id } }", token: person.token)
        guard case .array(let list)? = response.data?["pushSubscriptions"] else {
            Issue.record("pushSubscriptions: \(response.json)")
            return []
        }
        return list.compactMap { $0["id"]?.stringValue }
    }

    /// Queues `payload` to every subscription of `person` through `POST /_test/push`.
    func push(
        _ payload: String, to person: Person, ttl: Int = 60, urgency: String = "normal", topic: String? = nil
    ) throws -> HTTPTestClient.Response {
        var body: [String: Any] = ["userId": person.userID, "payload": payload, "ttl": ttl, "urgency": urgency]
        if let topic { body["topic"] = topic }
        return try post("/_test/push", String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
    }
}
