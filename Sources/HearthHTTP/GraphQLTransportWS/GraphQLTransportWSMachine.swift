/// The server side of graphql-transport-ws (graphql-ws's PROTOCOL.md) as a state machine over messages:
/// WebSocket messages, clock ticks and the application's decisions go in; messages to send, operations to
/// start and stop, and close codes come out. It knows nothing of GraphQL execution.
///
/// Rules enforced: `connection_init` within `connectionInitTimeout` (else 4408), one init only (4429), the
/// application accepts (`acknowledge`) or rejects (`reject`, 4403) it, `subscribe` only after the ack (4401),
/// unique operation ids (4409), malformed or unexpected messages and binary frames (4400); pings are answered;
/// a client `complete` stops the operation at once, and nothing is sent for an id after its completion.
public struct GraphQLTransportWSMachine: Sendable {
    /// The sub-protocol name to put in `WebSocketConfiguration.subprotocols`.
    public static let subprotocol = "graphql-transport-ws"

    /// Limits, each with its default.
    public struct Configuration: Sendable {
        /// How long the client may take to send `connection_init` (4408 after). Default 3 s, as graphql-ws.
        public var connectionInitTimeout: Duration = .seconds(3)
        /// Operations running at once on one connection; a `subscribe` beyond it gets an `error` message
        /// (the connection stays open). Default 100.
        public var maxOperations = 100

        /// The defaults documented on each property.
        public init() {}
    }

    /// What the application must do.
    public enum Action: Sendable, Equatable {
        /// Send this message to the client.
        case send(GraphQLTransportWSMessage)
        /// The client sent `connection_init`: check the payload (credentials), then call `acknowledge(payload:)`
        /// or `reject(reason:)`.
        case authorize(payload: [UInt8]?)
        /// Start operation `id`; report results through `next`, `error` and `complete`.
        case startOperation(id: String, payload: [UInt8])
        /// Stop operation `id` now (the client completed it, or the connection is closing) and release it.
        case stopOperation(id: String)
        /// Close the WebSocket with this code and reason. Operations still running were stopped before.
        case close(code: WebSocketCloseCode, reason: String)
    }

    private enum Phase: Sendable, Equatable {
        case awaitingInit(deadline: UInt64)
        case authorizing
        case acknowledged
        case closed
    }

    private let configuration: Configuration
    private var phase: Phase
    /// Running operations, by id.
    private var operations: Set<String> = []

    /// A machine for a connection opened at `now` (monotonic nanoseconds, the same clock as `tick`).
    public init(configuration: Configuration = Configuration(), now: UInt64) {
        self.configuration = configuration
        let (seconds, attoseconds) = configuration.connectionInitTimeout.components
        let timeout = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        phase = .awaitingInit(deadline: now &+ timeout)
    }

    /// The ids of running operations.
    public var runningOperations: Set<String> { operations }

    /// Whether the connection was acknowledged and is not closed.
    public var isAcknowledged: Bool { phase == .acknowledged }

    // MARK: - From the client

    /// Handles one WebSocket message from the client.
    public mutating func receive(_ message: WebSocketMessage) -> [Action] {
        guard phase != .closed else { return [] }
        guard message.kind == .text else { return close(4400, "Binary messages are not supported") }
        let decoded: GraphQLTransportWSMessage
        do {
            decoded = try GraphQLTransportWSMessage.decode(message.payload)
        } catch {
            return close(4400, error.description)
        }
        switch decoded {
        case .connectionInit(let payload):
            guard case .awaitingInit = phase else { return close(4429, "Too many initialisation requests") }
            phase = .authorizing
            return [.authorize(payload: payload)]
        case .ping:
            return [.send(.pong(payload: nil))]
        case .pong:
            return []
        case .subscribe(let id, let payload):
            guard phase == .acknowledged else { return close(4401, "Unauthorized") }
            guard !operations.contains(id) else { return close(4409, "Subscriber for \(id) already exists") }
            guard operations.count < configuration.maxOperations else {
                return [.send(.error(id: id, payload: Array(
                    "[{\"message\":\"Too many operations on this connection (limit \(configuration.maxOperations))\"}]".utf8)))]
            }
            operations.insert(id)
            return [.startOperation(id: id, payload: payload)]
        case .complete(let id):
            guard operations.remove(id) != nil else { return [] }
            return [.stopOperation(id: id)]
        case .connectionAck, .next, .error:
            return close(4400, "Unexpected message from a client")
        }
    }

    /// Checks the initialisation deadline.
    public mutating func tick(now: UInt64) -> [Action] {
        guard case .awaitingInit(let deadline) = phase, now >= deadline else { return [] }
        return close(4408, "Connection initialisation timeout")
    }

    // MARK: - From the application

    /// Accepts the `connection_init` (after `.authorize`).
    public mutating func acknowledge(payload: [UInt8]? = nil) -> [Action] {
        guard phase == .authorizing else { return [] }
        phase = .acknowledged
        return [.send(.connectionAck(payload: payload))]
    }

    /// Refuses the `connection_init` (after `.authorize`): closes with 4403.
    public mutating func reject(reason: String = "Forbidden") -> [Action] {
        guard phase == .authorizing else { return [] }
        return close(4403, reason)
    }

    /// Whether a result of operation `id` may be sent now: the connection is acknowledged and the operation
    /// is running (not completed by either side). `next(id:payload:)` sends exactly when this holds; a sender
    /// with a pre-encoded message (`GraphQLTransportWSMessage.SharedNext`) asks here instead.
    public func acceptsNext(id: String) -> Bool {
        phase == .acknowledged && operations.contains(id)
    }

    /// Sends a result of operation `id`; nothing if it is no longer running.
    public func next(id: String, payload: [UInt8]) -> [Action] {
        guard acceptsNext(id: id) else { return [] }
        return [.send(.next(id: id, payload: payload))]
    }

    /// Ends operation `id` with errors (a JSON array of GraphQL errors); nothing if it is no longer running.
    public mutating func error(id: String, payload: [UInt8]) -> [Action] {
        guard phase == .acknowledged, operations.remove(id) != nil else { return [] }
        return [.send(.error(id: id, payload: payload))]
    }

    /// Ends operation `id` normally; nothing if it is no longer running.
    public mutating func complete(id: String) -> [Action] {
        guard phase == .acknowledged, operations.remove(id) != nil else { return [] }
        return [.send(.complete(id: id))]
    }

    /// The application failed unexpectedly: closes with 4500.
    public mutating func fail(reason: String = "Internal server error") -> [Action] {
        guard phase != .closed else { return [] }
        return close(4500, reason)
    }

    /// The WebSocket closed: stops every running operation.
    public mutating func connectionClosed() -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        return stopAll()
    }

    private mutating func close(_ code: UInt16, _ reason: String) -> [Action] {
        phase = .closed
        return stopAll() + [.close(code: WebSocketCloseCode(code), reason: reason)]
    }

    private mutating func stopAll() -> [Action] {
        let stopped = operations.sorted().map { Action.stopOperation(id: $0) }
        operations.removeAll()
        return stopped
    }
}
