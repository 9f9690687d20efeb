import FoundationEssentials
import HearthHTTP
import HearthServices

/// `POST /_test/push`, served only with `--test-endpoints`: queues a Web Push to every
/// subscription of an account through ``PushService/deliver(payload:to:topic:ttl:urgency:)``,
/// the entry point reminders and notices use, so the end-to-end tests drive delivery before
/// those exist. The body is JSON: `userId`, `payload` (text, sent as its UTF-8 bytes), `ttl`
/// (seconds), `urgency` (`very-low` … `high`) and an optional `topic`. Answers 201 with the
/// number of pushes queued, or 400 with the service's problems (`payload TOO_LARGE`, …).
struct TestPushRoutes {
    let push: PushService

    private struct Body: Decodable {
        var userId: String
        var payload: String
        var topic: String?
        var ttl: Int
        var urgency: PushUrgency
    }

    /// Adds the route.
    func register(in router: inout Router) {
        router.on(.post, "/_test/push") { [push] request in
            guard let body = try? JSONDecoder().decode(Body.self, from: Data(request.body)) else {
                return .text("the body must be JSON with userId, payload, ttl, urgency and optionally topic", status: .badRequest)
            }
            let subscriptions = try await push.subscriptions(ofUser: body.userId)
            do {
                for subscription in subscriptions {
                    try await push.deliver(
                        payload: Array(body.payload.utf8), to: subscription, topic: body.topic, ttl: body.ttl, urgency: body.urgency)
                }
            } catch let error as ServiceError {
                return .text(error.problems.map { "\($0.field) \($0.reason.rawValue): \($0.message)" }.joined(separator: "\n"), status: .badRequest)
            }
            return .text("\(subscriptions.count)", status: .created)
        }
    }
}
