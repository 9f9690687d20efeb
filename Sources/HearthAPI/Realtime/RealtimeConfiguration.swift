import HearthHTTP

/// How `/graphql` serves WebSocket clients: the RFC 6455 limits and compression, and the
/// graphql-transport-ws limits. A `Sendable` value read once at start.
public struct RealtimeConfiguration: Sendable {
    /// Frame and message sizes, pings, compression, allowed origins. Its `subprotocols` are
    /// replaced by graphql-transport-ws when the endpoint is registered.
    public var webSocket = WebSocketConfiguration()
    /// The `connection_init` timeout and the operations allowed at once per connection.
    public var transport = GraphQLTransportWSMachine.Configuration()

    /// The defaults of `WebSocketConfiguration` and `GraphQLTransportWSMachine.Configuration`.
    public init() {}
}
