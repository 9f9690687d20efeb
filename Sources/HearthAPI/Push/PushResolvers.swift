import GraphQL
import HearthServices

/// The resolvers of Web Push (issue 18) over ``PushService``: `pushConfiguration`,
/// `pushSubscriptions`, `registerPushSubscription`, `unregisterPushSubscription` and `node`
/// lookups of subscriptions.
enum PushResolvers {
    static func install(into resolvers: inout Resolvers, push: PushService) {
        let configuration: [String: any Sendable] = [
            "vapidPublicKey": push.configuration.vapid.publicKey, "maxPayloadBytes": WebPushEncryption.maximumPlaintextBytes,
        ]
        resolvers.resolve("Query", "pushConfiguration") { _, _, _, _ in configuration }
        resolvers.resolveAsync("Query", "pushSubscriptions") { _, _, context, _ in
            try await push.subscriptions(viewer: try RequestContext.of(context).viewer()).map(PushSubscriptionValue.init)
        }
        resolvers.resolveMutation("registerPushSubscription") { input, context in
            let keys = input.object("keys")
            let registration = PushService.Registration(
                endpoint: try input.requiredString("endpoint"), p256dh: keys?.string("p256dh") ?? "", auth: keys?.string("auth") ?? "")
            let record = try await push.register(registration, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["pushSubscription": PushSubscriptionValue(record: record)]
        }
        resolvers.resolveMutation("unregisterPushSubscription") { input, context in
            ["unregisteredPushSubscriptionId": try await push.unregister(
                id: try input.requiredString("pushSubscriptionId"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)]
        }
    }

    /// The viewer's subscriptions among `ids`, by id (for `node`/`nodes`).
    static func nodes(ids: [String], push: PushService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer else { return [:] }
        var found: [String: any Sendable] = [:]
        for record in try await push.subscriptions(ids: ids, viewer: viewer) { found[record.id] = PushSubscriptionValue(record: record) }
        return found
    }
}

/// A `PushSubscription` of `schema.graphql`. Its keys are write-only: the API never shows them.
struct PushSubscriptionValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: PushSubscriptionRecord

    var graphQLTypeName: String { "PushSubscription" }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "endpoint": record.endpoint
        case "createdAt": record.createdAt
        case "updatedAt": record.updatedAt
        default: nil
        }
    }
}
