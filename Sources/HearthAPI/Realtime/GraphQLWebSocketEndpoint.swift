import HearthHTTP
import Support

/// GraphQL over WebSocket with the graphql-transport-ws sub-protocol: registers the WebSocket
/// side of a path (normally `/graphql`, next to the HTTP handlers) and serves each connection
/// with a `GraphQLWebSocketSession` over `service`.
///
/// ```swift
/// GraphQLHTTPHandler(service: service).register(in: &router)
/// GraphQLWebSocketEndpoint(service: service, configuration: RealtimeConfiguration(), metrics: metrics)
///     .register(in: &router)
/// ```
public struct GraphQLWebSocketEndpoint: Sendable {
    /// The pipeline operations run through.
    public let service: GraphQLService
    /// The WebSocket and protocol limits.
    public let configuration: RealtimeConfiguration
    /// Counts connections and subscriptions.
    public let metrics: RealtimeMetrics
    private let makeContext: @Sendable (HTTPRequest) -> any Sendable

    /// Creates the endpoint.
    /// - Parameter makeContext: The resolver context of a connection's operations, from its upgrade request.
    public init(
        service: GraphQLService, configuration: RealtimeConfiguration, metrics: RealtimeMetrics,
        makeContext: @escaping @Sendable (HTTPRequest) -> any Sendable = { _ in () }
    ) {
        self.service = service
        self.configuration = configuration
        self.metrics = metrics
        self.makeContext = makeContext
    }

    /// Makes `path` a graphql-transport-ws endpoint.
    public func register(in router: inout Router, path: String = "/graphql") {
        var webSocket = configuration.webSocket
        webSocket.subprotocols = [GraphQLTransportWSMachine.subprotocol]
        router.webSocket(path, configuration: webSocket) { [self] request, connection in
            GraphQLWebSocketSession(
                connection: connection, service: service, context: makeContext(request), connectionID: request.id,
                configuration: configuration.transport, metrics: metrics, now: MonotonicClock.nanoseconds())
        }
    }
}
