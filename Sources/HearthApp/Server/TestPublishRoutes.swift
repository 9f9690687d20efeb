import FoundationEssentials
import HearthAPI
import HearthHTTP
import HearthServices
import HearthStore
import Synchronization

/// `POST /_test/publish`, served only with `--test-endpoints`: records one `server.heartbeat`
/// event (a ``ServerStatus`` payload, as ``ServerEvents`` publishes) through the change log in
/// a write transaction, so it reaches every `serverEvents` subscriber through the real commit
/// and bus path, and answers 201 with the event's sequence once the commit returned. The
/// WebSocket fan-out benchmark (`tools/bench/ws`) uses it to publish on demand.
///
/// Its heartbeat numbers count this route's own events (1, 2, …) and its `startedAt` is when
/// the route was created; they are independent of the periodic heartbeats.
///
/// `GET /_test/subscriptions/:count` answers once exactly `count` subscriptions are streaming
/// (or after 10 seconds), with the count then: a graphql-transport-ws `subscribe` and `complete`
/// have no reply, so tests and the benchmark wait here instead of polling `/metrics`.
final class TestPublishRoutes: Sendable {
    let changeLog: ChangeLog
    /// The store the change log records in.
    let pool: any DatabaseWriter
    let realtime: RealtimeMetrics
    private let startedAt = Date()
    private let published = Atomic<Int>(0)

    /// How long `/_test/subscriptions/:count` waits at most.
    static let subscriptionWaitLimit: Duration = .seconds(10)

    /// Routes publishing through `changeLog` (in `pool`) and reporting `realtime`'s subscriptions.
    init(changeLog: ChangeLog, pool: any DatabaseWriter, realtime: RealtimeMetrics) {
        self.changeLog = changeLog
        self.pool = pool
        self.realtime = realtime
    }

    /// Adds the route.
    func register(in router: inout Router) {
        router.on(.post, "/_test/publish") { [self] _ in
            let heartbeat = published.wrappingAdd(1, ordering: .relaxed).newValue
            let status = ServerStatus(startedAt: startedAt, heartbeat: heartbeat)
            let event = try await pool.write { [changeLog] database in
                try changeLog.record(topic: .server, kind: .serverHeartbeat, payload: status, in: database)
            }
            return .text("published \(event.sequence)", status: .created)
        }
        router.on(.get, "/_test/subscriptions/:count") { [self] request in
            guard let count = Int(request.parameters["count"] ?? ""), count >= 0 else {
                return .text("the count is a number of subscriptions", status: .badRequest)
            }
            return .text("\(await realtime.waitForActiveSubscriptions(count, timeout: Self.subscriptionWaitLimit))")
        }
    }
}
