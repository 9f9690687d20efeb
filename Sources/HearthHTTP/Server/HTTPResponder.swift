/// The one-shot channel a handler answers through. Copy it freely and call it from any thread: on the
/// connection's event-loop thread the response is taken inline (no thread hop), from elsewhere it is queued to
/// the loop and the loop is woken.
///
/// Each request must be answered exactly once, either with `send(_:)` or with `sendHead(_:)` followed by the
/// returned writer's `finish()`. Later calls are ignored and reported to the observer as a warning. A response
/// for a connection that has closed meanwhile is dropped.
public struct HTTPResponder: Sendable {
    let loop: EventLoop
    let token: ConnectionToken
    let sequence: UInt64
    let acceptsGzip: Bool

    /// Sends a complete response, gzip-compressing the body first (on the calling thread) when the client
    /// accepts gzip and the body is at least `Compression.minimumBodySize` bytes.
    public func send(_ response: HTTPResponse) {
        var response = response
        loop.context.compress(&response, clientAcceptsGzip: acceptsGzip)
        loop.deliver(.full(response), to: token, sequence: sequence)
    }

    /// Sends the status and headers now and returns a writer for a body of unknown length, sent with chunked
    /// transfer coding (HTTP/1.1) or delimited by closing the connection (HTTP/1.0). Streamed bodies are not
    /// compressed.
    public func sendHead(_ response: HTTPResponse) -> HTTPResponseBodyWriter {
        let flow = StreamFlow(limit: loop.context.configuration.maxPendingOutputBytes)
        loop.deliver(.head(response, flow), to: token, sequence: sequence)
        return HTTPResponseBodyWriter(responder: self, flow: flow)
    }

    /// Answers 500 for a handler that failed, and reports the error to the observer (with the
    /// request id), as the router does for async handlers that throw.
    public func fail(_ error: any Error, request: HTTPRequest) {
        loop.context.observer?.serverEvent(HTTPServerEvent(
            level: .error, message: "request handler failed",
            metadata: ["error": "\(error)", "request.id": request.id, "http.route": request.route ?? ""]))
        send(.text("internal server error\n", status: .internalServerError))
    }
}

/// Writes the body of a streamed response (see `HTTPResponder.sendHead(_:)`), from any thread, in order.
///
/// A producer on a thread of its own (a database reader, a worker; never an event loop) writes with
/// ``writeWaiting(_:)``: it then waits while more than `HTTPServerConfiguration.maxPendingOutputBytes`
/// of the body are not yet handed to the socket, so a slow client slows the producer rather than
/// growing the server's memory, and learns when the client has gone.
public struct HTTPResponseBodyWriter: Sendable {
    let responder: HTTPResponder
    let flow: StreamFlow

    /// Queues `bytes` as the next part of the body, without waiting; empty writes are ignored.
    public func write(_ bytes: [UInt8]) {
        flow.produced(bytes.count)
        responder.loop.deliver(.chunk(bytes, flow), to: responder.token, sequence: responder.sequence)
    }

    /// Queues `bytes` as the next part of the body, then blocks the calling thread while more than
    /// `maxPendingOutputBytes` of the body wait to be written. Returns false once the connection has
    /// closed (or the body ended): stop producing then. Never call it on an event-loop thread.
    public func writeWaiting(_ bytes: [UInt8]) -> Bool {
        write(bytes)
        return flow.waitWhileBehind()
    }

    /// Ends the body; the request is then complete. Must be called exactly once (or ``abort()`` instead).
    public func finish() {
        responder.loop.deliver(.end, to: responder.token, sequence: responder.sequence)
    }

    /// Ends the response as failed, instead of ``finish()``: what was queued is still sent, then
    /// the connection closes without the last chunk (HTTP/1.1) so the client sees a broken body
    /// rather than a short one that looks whole. For a producer that fails after the head went
    /// out (a streamed export whose read fails), when the status can no longer say so.
    public func abort() {
        responder.loop.deliver(.abort, to: responder.token, sequence: responder.sequence)
    }
}

/// A piece of a response travelling from a responder to its connection.
enum ResponsePart: Sendable {
    case full(HTTPResponse)
    case head(HTTPResponse, StreamFlow)
    case chunk([UInt8], StreamFlow)
    case end
    /// A streamed body that failed: close after what is queued, without the last chunk.
    case abort

    /// Called when the part cannot reach its connection (closed, or the request answered): a
    /// producer waiting on its stream must not wait for bytes that will never be sent.
    func dropped() {
        switch self {
        case .head(_, let flow), .chunk(_, let flow): flow.close()
        case .full, .end, .abort: break
        }
    }
}

/// Identifies a connection slot on its loop; the generation tells apart successive connections in one slot.
struct ConnectionToken: Sendable, Equatable {
    let slot: Int
    let generation: UInt32

    /// The epoll token: the generation above the slot, offset past the listener and wake-up tokens.
    var epollToken: UInt64 { UInt64(generation) << 32 | UInt64(slot + EventLoop.firstConnectionToken) }

    init(slot: Int, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }

    init(epollToken: UInt64) {
        slot = Int(epollToken & 0xFFFF_FFFF) - EventLoop.firstConnectionToken
        generation = UInt32(epollToken >> 32)
    }
}
