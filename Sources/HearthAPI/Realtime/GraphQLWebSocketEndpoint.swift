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
    private let authorize: Authorizer
    private let sharingScope: SharingScope
    private let fanout: SubscriptionFanout

    /// Which connections may share a subscription's execution: operations share only when their contexts map
    /// to the same scope (for example the signed-in user's id), because a subscription's subscribe-time checks
    /// run for the first operation of a shared group only.
    public typealias SharingScope = @Sendable (_ context: any Sendable) -> String

    /// Whether a subscription of root field `fieldName` with `arguments` is live: its stream starts with what
    /// happens after it subscribes, so an operation asking for the same thing later may join its running
    /// execution. `false` for a stream that first replays history (the events after a resume cursor, a
    /// resync): an operation joining after its first response would miss that history, so it gets its own.
    public typealias LiveSubscription = @Sendable (_ fieldName: String, _ arguments: Arguments) -> Bool

    /// Decides on a connection's `connection_init`: given the context `makeContext` made from the upgrade
    /// request and the init message's payload (JSON bytes, `nil` when absent), accepts the connection with the
    /// context its operations run with, or rejects it (4403). The connection waits, refusing operations,
    /// until the decision is made.
    public typealias Authorizer = @Sendable (_ upgradeContext: any Sendable, _ payload: [UInt8]?) async -> ConnectionAuthorization

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
    ///   - authorize: Decides on `connection_init`; by default every connection is accepted with the
    ///     upgrade request's context.
    ///   - sharingScope: Partitions shared subscriptions; by default everyone shares.
    ///   - isLive: Which subscriptions operations may join after their first response; by default none (they
    ///     share only with operations that subscribe before it).
    public init(
        service: GraphQLService, configuration: RealtimeConfiguration, metrics: RealtimeMetrics,
        makeContext: @escaping @Sendable (HTTPRequest) -> any Sendable = { _ in () }, filter: DeliveryFilter? = nil,
        authorize: @escaping Authorizer = { context, _ in .accept(context: context) },
        sharingScope: @escaping SharingScope = { _ in "" },
        isLive: @escaping LiveSubscription = { _, _ in false }
    ) {
        fanout = SubscriptionFanout(isLive: isLive)
        self.service = service
        self.configuration = configuration
        self.metrics = metrics
        self.makeContext = makeContext
        self.filter = filter
        self.authorize = authorize
        self.sharingScope = sharingScope
    }

    /// How many shared subscriptions are running (each with one source stream, whatever its member count),
    /// not counting a replaying one that a newer one for the same request replaced (``LiveSubscription``).
    public var sharedSubscriptionCount: Int { fanout.groupCount }

    /// Makes `path` a graphql-transport-ws endpoint.
    public func register(in router: inout Router, path: String = "/graphql") {
        var webSocket = configuration.webSocket
        webSocket.subprotocols = [GraphQLTransportWSMachine.subprotocol]
        router.webSocket(path, configuration: webSocket) { [self] request, connection in
            GraphQLWebSocketSession(
                connection: connection, service: service, fanout: fanout, filter: filter, authorize: authorize,
                sharingScope: sharingScope,
                context: makeContext(request),
                connectionID: request.id,
                configuration: configuration.transport, metrics: metrics, now: MonotonicClock.nanoseconds())
        }
    }
}
