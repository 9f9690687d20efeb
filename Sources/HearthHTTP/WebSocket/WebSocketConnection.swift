/// The application's handle on one upgraded connection. Share it freely and call it from any thread: on the
/// connection's event-loop thread a call acts at once, from elsewhere it is queued to the loop (one wake-up
/// per batch). Calls on a connection that has closed are ignored.
///
/// Nothing here allocates per connection beyond this small object: no thread, no task, no queue of its own.
public final class WebSocketConnection: Sendable {
    let loop: EventLoop
    let token: ConnectionToken
    /// The sub-protocol agreed in the handshake, nil when the endpoint negotiates none.
    public let subprotocol: String?
    /// Whether permessage-deflate was agreed.
    public let isCompressed: Bool
    /// The endpoint's compression settings: pass them to `WebSocketEncodedFrame` so messages built for many
    /// connections are compressed once, in the form these connections can take as they are.
    public let compression: WebSocketConfiguration.Compression?
    /// The peer's `host:port`.
    public let remoteAddress: String

    init(
        loop: EventLoop, token: ConnectionToken, subprotocol: String?, isCompressed: Bool,
        compression: WebSocketConfiguration.Compression?, remoteAddress: String
    ) {
        self.loop = loop
        self.token = token
        self.subprotocol = subprotocol
        self.isCompressed = isCompressed
        self.compression = compression
        self.remoteAddress = remoteAddress
    }

    /// Sends a pre-encoded message; the same frame may go to any number of connections.
    public func send(_ frame: WebSocketEncodedFrame) {
        loop.deliver(.frame(frame), to: token)
    }

    /// The event loop the connection lives on, where its events arrive and its sends act at once: a fan-out
    /// groups its recipients by it and hands each loop one job.
    public var eventLoop: WebSocketEventLoop { WebSocketEventLoop(loop: loop) }

    /// Sends a text message.
    public func send(text: String) {
        send(.text(text, compression: nil))
    }

    /// Sends a binary message.
    public func send(binary: [UInt8]) {
        send(.binary(binary, compression: nil))
    }

    /// Sends a ping (at most 125 bytes of payload; longer payloads are truncated).
    public func ping(_ payload: [UInt8] = []) {
        loop.deliver(.ping(Array(payload.prefix(125))), to: token)
    }

    /// Starts the closing handshake: sends a close frame (the reason is truncated to fit 123 bytes of UTF-8),
    /// sends no more messages, and closes the socket when the client answers or the close timeout passes.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        loop.deliver(.close(code, reason), to: token)
    }
}

/// What a `WebSocketConnection` asks of its connection on the loop.
enum WebSocketCommand: Sendable {
    case frame(WebSocketEncodedFrame)
    case ping([UInt8])
    case close(WebSocketCloseCode, String)
}

/// Receives one connection's events, always on the connection's event-loop thread, one at a time. Keep the
/// work short (event loops never wait); hand anything slow elsewhere and answer through the connection.
public protocol WebSocketHandler: AnyObject {
    /// A complete message arrived (reassembled, decompressed, text validated as UTF-8).
    func webSocket(_ connection: WebSocketConnection, received message: WebSocketMessage)
    /// The client pinged; the pong was already sent. Default: nothing.
    func webSocket(_ connection: WebSocketConnection, receivedPing payload: [UInt8])
    /// The client sent a pong. Default: nothing.
    func webSocket(_ connection: WebSocketConnection, receivedPong payload: [UInt8])
    /// Called on every timer scan of the loop (10–250 ms apart) with the loop's time in nanoseconds of
    /// `CLOCK_MONOTONIC` (the clock of Support's `MonotonicClock.nanoseconds()`), for protocol deadlines such
    /// as graphql-transport-ws's init timeout. Default: nothing.
    func webSocket(_ connection: WebSocketConnection, tick now: UInt64)
    /// The connection is over, exactly once: the close code sent or received (1006 when the socket ended
    /// without a closing handshake) and the reason. Release what the connection held.
    func webSocket(_ connection: WebSocketConnection, closedWith code: WebSocketCloseCode, reason: String)
}

extension WebSocketHandler {
    /// Does nothing.
    public func webSocket(_ connection: WebSocketConnection, receivedPing payload: [UInt8]) {}
    /// Does nothing.
    public func webSocket(_ connection: WebSocketConnection, receivedPong payload: [UInt8]) {}
    /// Does nothing.
    public func webSocket(_ connection: WebSocketConnection, tick now: UInt64) {}
}

/// Called on the event-loop thread once the 101 response is queued, with the upgrade request and the new
/// connection; returns the handler for the connection's events.
public typealias WebSocketUpgradeHandler = @Sendable (HTTPRequest, WebSocketConnection) -> any WebSocketHandler

/// A route's WebSocket side: how to negotiate and who takes the connections.
struct WebSocketEndpoint: Sendable {
    let configuration: WebSocketConfiguration
    let handler: WebSocketUpgradeHandler
}
