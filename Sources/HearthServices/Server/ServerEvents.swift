import FoundationEssentials
import Support

extension EventKind {
    /// The server process started (``ServerEvents/run()`` began).
    public static let serverStarted: EventKind = "server.started"
    /// The server is alive; published every ``ServerEvents/Configuration/heartbeatInterval``.
    public static let serverHeartbeat: EventKind = "server.heartbeat"
}

/// The payload of the ``Topic/server`` events: which run of the server and how far along.
public struct ServerStatus: Codable, Sendable, Hashable {
    /// When this server process started.
    public var startedAt: Date
    /// 0 for ``EventKind/serverStarted``, then 1, 2, … for each heartbeat of this run.
    public var heartbeat: Int

    /// A status value.
    public init(startedAt: Date, heartbeat: Int) {
        self.startedAt = startedAt
        self.heartbeat = heartbeat
    }
}

/// Publishes the server's own events on ``Topic/server``: `server.started` once, then a
/// `server.heartbeat` at a fixed interval, so a client's live subscription can tell a
/// quiet server from a dead connection, and notice restarts.
///
/// The events go through the ``ChangeLog`` like every other change, so they carry real
/// sequences and follow the same ordering rules. Each heartbeat deletes the previous ones
/// from the log (live subscribers received them; catching up on old heartbeats is
/// pointless), so the log does not grow with uptime.
public struct ServerEvents: Sendable {
    /// How often heartbeats are published.
    public struct Configuration: Sendable {
        /// Time between heartbeats; 30 seconds by default, below the idle timeouts of
        /// common proxies and load balancers.
        public var heartbeatInterval: Duration

        /// The defaults, or a given interval.
        public init(heartbeatInterval: Duration = .seconds(30)) {
            precondition(heartbeatInterval > .zero, "the heartbeat interval must be positive")
            self.heartbeatInterval = heartbeatInterval
        }
    }

    private let changeLog: ChangeLog
    private let configuration: Configuration
    private let logger: Logger

    /// A producer recording into `changeLog`.
    public init(changeLog: ChangeLog, configuration: Configuration = Configuration(), logger: Logger) {
        self.changeLog = changeLog
        self.configuration = configuration
        self.logger = logger
    }

    /// Publishes `server.started`, then a heartbeat every interval until the task is
    /// cancelled, and returns. A failed write is logged and the next beat tried.
    public func run() async {
        let startedAt = changeLog.clock.storedNow
        var heartbeat = 0
        while !Task.isCancelled {
            let kind: EventKind = heartbeat == 0 ? .serverStarted : .serverHeartbeat
            let status = ServerStatus(startedAt: startedAt, heartbeat: heartbeat)
            do {
                try await changeLog.pool.write { [changeLog] database in
                    let event = try changeLog.record(topic: .server, kind: kind, payload: status, in: database)
                    // Only the latest heartbeat is worth keeping: the log must not grow with uptime.
                    if kind == .serverHeartbeat {
                        try ChangeLog.deleteChanges(topic: .server, kind: kind, before: event.sequence, in: database)
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("cannot record a server event", ["event.kind": kind.rawValue, "error": "\(error)"])
            }
            heartbeat += 1
            do {
                try await Task.sleep(for: configuration.heartbeatInterval)
            } catch {
                return
            }
        }
    }
}
