import FoundationEssentials
import GraphQL
import HearthServices

/// The resolvers of push (issue 18) over ``PushService``: `pushConfiguration`,
/// `pushSubscriptions` (Web Push subscriptions and FCM registrations), `registerPushSubscription`,
/// `registerFcmToken`, `unregisterPushSubscription` and `node` lookups of subscriptions.
enum PushResolvers {
    static func install(into resolvers: inout Resolvers, push: PushService) {
        let configuration: [String: any Sendable] = [
            "vapidPublicKey": push.configuration.vapid.publicKey, "maxPayloadBytes": WebPushEncryption.maximumPlaintextBytes,
            "fcmProjectId": push.configuration.fcm?.serviceAccount.projectID,
        ]
        resolvers.resolve("Query", "pushConfiguration") { _, _, _, _ in configuration }
        resolvers.resolveAsync("Query", "pushSubscriptions") { _, _, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let all = try await push.subscriptions(viewer: viewer).map { PushSubscriptionValue(record: .webPush($0), push: push) }
                + push.fcmRegistrations(viewer: viewer).map { PushSubscriptionValue(record: .fcm($0), push: push) }
            return all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
        resolvers.resolveMutation("registerPushSubscription") { input, context in
            let keys = input.object("keys")
            let registration = PushService.Registration(
                endpoint: try input.requiredString("endpoint"), p256dh: keys?.string("p256dh") ?? "", auth: keys?.string("auth") ?? "")
            let record = try await push.register(registration, viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["pushSubscription": PushSubscriptionValue(record: .webPush(record), push: push)]
        }
        resolvers.resolveMutation("registerFcmToken") { input, context in
            let record = try await push.registerFCM(
                token: try input.requiredString("token"), viewer: try context.viewer(), clientMutationID: input.clientMutationID)
            return ["pushSubscription": PushSubscriptionValue(record: .fcm(record), push: push)]
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
        for record in try await push.subscriptions(ids: ids, viewer: viewer) { found[record.id] = PushSubscriptionValue(record: .webPush(record), push: push) }
        for record in try await push.fcmRegistrations(ids: ids, viewer: viewer) { found[record.id] = PushSubscriptionValue(record: .fcm(record), push: push) }
        return found
    }
}

/// A `PushSubscription` of `schema.graphql`: a Web Push subscription or an FCM registration. Its
/// keys and token are write-only: the API never shows them.
struct PushSubscriptionValue: Sendable, FieldResolvable, TypeNameResolvable {
    /// The stored row.
    enum Record: Sendable {
        case webPush(PushSubscriptionRecord)
        case fcm(FCMRegistrationRecord)
    }

    let record: Record
    /// Where FCM messages are sent, the `endpoint` of an FCM registration.
    let fcmEndpoint: String?

    init(record: Record, push: PushService) {
        self.record = record
        fcmEndpoint = push.configuration.fcm?.sendEndpoint.description
    }

    var graphQLTypeName: String { "PushSubscription" }

    var id: String {
        switch record {
        case .webPush(let row): row.id
        case .fcm(let row): row.id
        }
    }

    var createdAt: Date {
        switch record {
        case .webPush(let row): row.createdAt
        case .fcm(let row): row.createdAt
        }
    }

    func fieldValue(named name: String) -> Any? {
        switch (name, record) {
        case ("id", _): id
        case ("createdAt", _): createdAt
        case ("kind", .webPush): "WEB_PUSH"
        case ("kind", .fcm): "FCM"
        case ("endpoint", .webPush(let row)): row.endpoint
        case ("endpoint", .fcm): fcmEndpoint ?? ""
        case ("updatedAt", .webPush(let row)): row.updatedAt
        case ("updatedAt", .fcm(let row)): row.updatedAt
        default: nil
        }
    }
}
