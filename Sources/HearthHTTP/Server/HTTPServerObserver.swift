/// Receives what happens in the server so the application can keep metrics and write logs; the library itself
/// keeps neither. Methods are called on event-loop threads and must return quickly. All have empty defaults.
public protocol HTTPServerObserver: Sendable {
    /// A connection was accepted (and counted against `maxConnections`).
    func connectionOpened()
    /// A connection was closed, for whatever reason.
    func connectionClosed()
    /// A connection was answered 503 and closed without being served (not counted as opened or closed).
    func connectionRefused(_ reason: ConnectionRefusal)
    /// A response was handed to the connection (including error responses the server generated itself).
    func requestCompleted(_ record: HTTPRequestRecord)
    /// Something an operator should know about: accept failures, a handler that threw, a misused responder.
    func serverEvent(_ event: HTTPServerEvent)
}

extension HTTPServerObserver {
    /// Does nothing.
    public func connectionOpened() {}
    /// Does nothing.
    public func connectionClosed() {}
    /// Does nothing.
    public func connectionRefused(_ reason: ConnectionRefusal) {}
    /// Does nothing.
    public func requestCompleted(_ record: HTTPRequestRecord) {}
    /// Does nothing.
    public func serverEvent(_ event: HTTPServerEvent) {}
}

/// Why a connection was refused.
public enum ConnectionRefusal: String, Sendable, CaseIterable {
    /// `maxConnections` connections were open already.
    case maxConnections = "max_connections"
    /// The process ran out of file descriptors (`EMFILE`, `ENFILE`, or the kernel's buffers).
    case outOfDescriptors = "out_of_descriptors"
}

/// One finished request, for access logs and metrics.
public struct HTTPRequestRecord: Sendable {
    /// The request method (empty `HTTPMethod("")` when the request line could not be parsed).
    public var method: HTTPMethod
    /// The route pattern that handled it (`/users/:id`), never the raw path, so metric labels stay bounded;
    /// nil when no route matched or the request was rejected before routing.
    public var route: String?
    /// The response status code.
    public var status: Int
    /// From the request's first byte (or the moment it was parsed, for pipelined requests) to the response.
    public var duration: Duration
    /// Request bytes read: head and body as received on the wire.
    public var bytesIn: Int
    /// Response bytes produced: status line, headers and body (after compression).
    public var bytesOut: Int
    /// The request id returned in `X-Request-Id` (empty when the request was rejected before it had one).
    public var requestID: String
    /// The TCP peer's `host:port`.
    public var remoteAddress: String
    /// The client's IP address: the peer's, or the one a trusted proxy named (see `HTTPRequest.clientAddress`).
    public var clientAddress: String
}

/// A server-level occurrence worth logging.
public struct HTTPServerEvent: Sendable {
    /// How serious it is.
    public enum Level: Sendable {
        /// Routine: listeners opened or closed, shutdown progress.
        case info
        /// Degraded but handled: descriptor exhaustion, a responder used twice.
        case warning
        /// A handler failed or an unexpected system error.
        case error
    }

    /// How serious it is.
    public var level: Level
    /// A short description.
    public var message: String
    /// Context with stable dotted keys (`error`, `request.id`, `loop`).
    public var metadata: [String: String]

    /// An event from its parts.
    public init(level: Level, message: String, metadata: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}
