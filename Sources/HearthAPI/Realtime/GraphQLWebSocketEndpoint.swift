import GraphQL
import HearthHTTP
import Support

/// GraphQL over WebSocket with the graphql-transport-ws sub-protocol: registers the WebSocket
/// side of a path (normally `/graphql`, next to the HTTP handlers) and serves each connection
/// with a `GraphQLWebSocketSession` over `service`. Subscriptions asking for the same thing share one
/// execution per event (see `SubscriptionFanout`).
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
    private let filter: DeliveryFilter?
    private let fanout = SubscriptionFanout()

    /// Decides, for one connection and one subscription response, whether the connection receives it: called
    /// with the connection's own context (from `makeContext`) on the connection's event loop, for every
    /// response of every subscription. It must be quick and must not wait. Responses are computed once for all
    /// connections subscribed to the same document and variables, so anything that depends on who is asking
    /// is decided here.
    public typealias DeliveryFilter = @Sendable (_ context: any Sendable, _ response: ExecutionResult) -> Bool

    /// Creates the endpoint.
    /// - Parameters:
    ///   - makeContext: The resolver context of a connection's operations, from its upgrade request.
    ///   - filter: Vetoes subscription responses per connection; `nil` delivers every response.
    public init(
        service: GraphQLService, configuration: RealtimeConfiguration, metrics: RealtimeMetrics,
        makeContext: @escaping @Sendable (HTTPRequest) -> any Sendable = { _ in () }, filter: DeliveryFilter? = nil
    ) {
        self.service = service
        self.configuration = configuration
        self.metrics = metrics
        self.makeContext = makeContext
        self.filter = filter
    }

    /// How many shared subscriptions are running (each with one source stream, whatever its member count).
    public var sharedSubscriptionCount: Int { fanout.groupCount }

    /// Makes `path` a graphql-transport-ws endpoint.
    public func register(in router: inout Router, path: String = "/graphql") {
        var webSocket = configuration.webSocket
        webSocket.subprotocols = [GraphQLTransportWSMachine.subprotocol]
        router.webSocket(path, configuration: webSocket) { [self] request, connection in
            GraphQLWebSocketSession(
                connection: connection, service: service, fanout: fanout, filter: filter, context: makeContext(request),
                connectionID: request.id,
                configuration: configuration.transport, metrics: metrics, now: MonotonicClock.nanoseconds())
        }
    }
}
