import FoundationEssentials
import HearthHTTP
import HearthServices
import Synchronization

/// `POST /_test/publish`, served only with `--test-endpoints`: records one `server.heartbeat`
/// event (a ``ServerStatus`` payload, as ``ServerEvents`` publishes) through the change log in
/// a write transaction, so it reaches every `serverEvents` subscriber through the real commit
/// and bus path, and answers 201 with the event's sequence once the commit returned. The
/// WebSocket fan-out benchmark (`tools/bench/ws`) uses it to publish on demand.
///
/// Its heartbeat numbers count this route's own events (1, 2, …) and its `startedAt` is when
/// the route was created; they are independent of the periodic heartbeats.
final class TestPublishRoutes: Sendable {
    let changeLog: ChangeLog
    private let startedAt = Date()
    private let published = Atomic<Int>(0)

    /// Routes publishing through `changeLog`.
    init(changeLog: ChangeLog) {
        self.changeLog = changeLog
    }

    /// Adds the route.
    func register(in router: inout Router) {
        router.on(.post, "/_test/publish") { [self] _ in
            let heartbeat = published.wrappingAdd(1, ordering: .relaxed).newValue
            let status = ServerStatus(startedAt: startedAt, heartbeat: heartbeat)
            let event = try await changeLog.pool.write { [changeLog] database in
                try changeLog.record(topic: .server, kind: .serverHeartbeat, payload: status, in: database)
            }
            return .text("published \(event.sequence)", status: .created)
        }
    }
}
