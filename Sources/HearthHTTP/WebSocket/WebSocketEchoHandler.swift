/// Sends every message back as it came, text as text and binary as binary: the peer that WebSocket conformance
/// suites (Autobahn|Testsuite's `fuzzingclient`) and tests drive. Replies are encoded the way the GraphQL
/// endpoint encodes its messages (`WebSocketEncodedFrame` with the connection's compression settings), so a
/// conformance run covers the same send path.
///
/// ```swift
/// router.webSocket("/echo") { _, _ in WebSocketEchoHandler() }
/// ```
public final class WebSocketEchoHandler: WebSocketHandler {
    /// A handler for one connection.
    public init() {}

    /// Echoes `message` on `connection`.
    public func webSocket(_ connection: WebSocketConnection, received message: WebSocketMessage) {
        Self.echo(message, on: connection)
    }

    /// Nothing is held per connection.
    public func webSocket(_ connection: WebSocketConnection, closedWith code: WebSocketCloseCode, reason: String) {}

    /// Sends `message` back on `connection`; for handlers that echo only some messages.
    public static func echo(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        switch message.kind {
        case .text: connection.send(.text(utf8: message.payload, compression: connection.compression))
        case .binary: connection.send(.binary(message.payload, compression: connection.compression))
        }
    }
}
