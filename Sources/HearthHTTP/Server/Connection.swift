import CSystem
import Glibc

/// One HTTP/1.1 connection, confined to its event loop's thread.
///
/// Requests are handled one at a time: after a request is dispatched, no further bytes are parsed until its
/// response has been queued, which is what answers pipelined requests in order. Responses of handlers that
/// answer inline are batched and written with one `send` at the end of the read.
///
/// The socket is registered edge-triggered for input and output once; `canRead`/`canWrite` remember readiness
/// between edges, so pausing (a handler in flight, too much unwritten output) costs no `epoll_ctl`.
///
/// Protocol seam: everything HTTP-specific about the byte stream lives in `process(_:)` and `receive(_:)`;
/// the socket plumbing (`pump`, `readOnce`, `flush`, `close`) does not look at the bytes. After a 101 response
/// to a WebSocket upgrade, `process(_:)` hands all input to the connection's `WebSocketSession` instead.
final class Connection {
    private enum Responding {
        case none
        case awaiting
        case streaming(chunked: Bool)
    }

    /// The request being received or answered.
    private struct Exchange {
        var head: HTTPRequestHead
        var body: [UInt8] = []
        var startedAt: UInt64
        var requestID = ""
        var clientAddress: String
        var route: String?
        var bytesOut = 0
        var status = 0
    }

    let fd: Int32
    let token: ConnectionToken
    /// The peer's `host:port`.
    let remoteAddress: String
    /// The peer's host, the client address of every request unless the peer is a trusted proxy.
    private let peerHost: String
    /// The peer, when it is a trusted proxy whose forwarding header names each request's client.
    private let trustedProxy: IPAddress?
    private unowned let loop: EventLoop
    private var parser: HTTPRequestParser
    private var pending: [UInt8] = []
    private var output: [UInt8] = []
    private var outputSent = 0
    private var canRead = false
    private var canWrite = true
    private var peerClosedInput = false
    private var closeAfterOutput = false
    private(set) var isClosed = false
    private var isPumping = false
    private var responding = Responding.none
    private var exchange: Exchange?
    private var sequence: UInt64 = 0
    private var requestBytesIn = 0
    private var idleSince: UInt64
    private var lastWriteProgress: UInt64
    /// Set once the connection was upgraded; from then on it speaks WebSocket.
    private var webSocket: WebSocketSession?
    /// The flow of the body being streamed, and how many of its bytes are queued but not yet sent.
    private var streamFlow: StreamFlow?
    private var streamUnsent = 0

    init(fd: Int32, token: ConnectionToken, peer: SocketAddress, loop: EventLoop) {
        self.fd = fd
        self.token = token
        remoteAddress = peer.description
        peerHost = peer.host
        let proxies = loop.context.configuration.trustedProxies
        trustedProxy = proxies.networks.isEmpty ? nil : IPAddress(peer.host).flatMap { proxies.contains($0) ? $0 : nil }
        self.loop = loop
        parser = HTTPRequestParser(configuration: loop.context.configuration.parser)
        idleSince = loop.now
        lastWriteProgress = loop.now
    }

    /// Nothing received, nothing in flight, nothing to write: safe to close at any moment.
    var isIdle: Bool {
        if webSocket != nil { return false }
        if case .none = responding {
            return exchange == nil && parser.isAtMessageBoundary && pending.isEmpty && outputSent == output.count
        }
        return false
    }

    private var hasBacklog: Bool {
        output.count - outputSent > loop.context.configuration.maxPendingOutputBytes
    }

    private var acceptsMoreRequests: Bool {
        if webSocket != nil { return !closeAfterOutput && !hasBacklog && !isClosed }
        if case .none = responding { return !closeAfterOutput && !hasBacklog && !isClosed }
        return false
    }

    // MARK: - Socket plumbing

    func handle(events: UInt32) {
        if events & (CSYSTEM_EPOLLIN | CSYSTEM_EPOLLRDHUP | CSYSTEM_EPOLLHUP | CSYSTEM_EPOLLERR) != 0 { canRead = true }
        if events & (CSYSTEM_EPOLLOUT | CSYSTEM_EPOLLHUP | CSYSTEM_EPOLLERR) != 0 { canWrite = true }
        pump()
    }

    /// Processes buffered input, reads while requests can be accepted, and writes what is queued.
    func pump() {
        guard !isPumping, !isClosed else { return }
        isPumping = true
        defer { isPumping = false }
        while !isClosed {
            if !pending.isEmpty && acceptsMoreRequests { processPending() }
            if acceptsMoreRequests && canRead && !peerClosedInput {
                readOnce()
                continue
            }
            let wasBackedUp = hasBacklog
            flush()
            // Writing out a backlog lets the requests waiting behind it go on.
            guard wasBackedUp, !isClosed, acceptsMoreRequests else { break }
        }
    }

    private func readOnce() {
        let buffer = loop.readBuffer
        let count: Int
        do throws(SystemError) {
            switch try syscall("read", { read(fd, buffer.baseAddress, buffer.count) }) {
            case .wouldBlock:
                canRead = false
                return
            case .done(let value):
                count = value
            }
        } catch {
            close()
            return
        }
        if count == 0 {
            peerFinishedSending()
            return
        }
        // A short read drained the socket; the next edge will tell us about new data.
        if count < buffer.count { canRead = false }
        let received = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        if pending.isEmpty {
            let consumed = process(received)
            if consumed < count && !isClosed { pending.append(contentsOf: received[consumed...]) }
        } else {
            pending.append(contentsOf: received)
            processPending()
        }
    }

    private func processPending() {
        let consumed = pending.withUnsafeBytes { process($0) }
        pending.removeFirst(consumed)
    }

    private func peerFinishedSending() {
        peerClosedInput = true
        canRead = false
        if webSocket != nil {
            // A WebSocket peer that stops sending without a closing handshake is gone.
            close()
            return
        }
        switch responding {
        case .none where exchange == nil && parser.isAtMessageBoundary && pending.isEmpty:
            closeAfterOutput = true
        case .none:
            // The request can never be completed.
            close()
        case .awaiting, .streaming:
            // Half-closed clients still get their answer; the connection closes after it.
            closeAfterOutput = true
        }
    }

    private func flush() {
        while outputSent < output.count && canWrite && !isClosed {
            let result: SyscallResult
            do throws(SystemError) {
                result = try syscall("send") {
                    output.withUnsafeBytes { csystem_send(fd, $0.baseAddress! + outputSent, $0.count - outputSent) }
                }
            } catch {
                close()
                return
            }
            switch result {
            case .wouldBlock:
                canWrite = false
            case .done(let sent):
                outputSent += sent
                lastWriteProgress = loop.now
                if let streamFlow, streamUnsent > 0 {
                    let credited = min(sent, streamUnsent)
                    streamUnsent -= credited
                    streamFlow.sent(credited)
                }
            }
        }
        guard outputSent == output.count, !isClosed else { return }
        // Upgraded connections mostly sit idle: they keep no output buffer between writes.
        if output.capacity > (webSocket == nil ? 64 * 1024 : 0) { output = [] } else { output.removeAll(keepingCapacity: true) }
        outputSent = 0
        if case .none = responding, closeAfterOutput || (loop.isDraining && isIdle) { close(afterResponse: true) }
    }

    /// Closes the connection.
    /// - Parameter afterResponse: whether a response was just written completely: then, unless the client has
    ///   closed its side already, the loop lingers on the socket until it does (`LingeringCloses`), so the
    ///   kernel does not answer late input with a reset that could destroy the response in the client's receive
    ///   buffer. Otherwise (errors, timeouts, the end of a shutdown) unread input is drained once, best effort.
    func close(afterResponse: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        endStream()
        if afterResponse && !peerClosedInput {
            loop.linger(fd)
        } else {
            LingeringCloses.closeAfterDraining(fd, buffer: loop.readBuffer)
        }
        loop.remove(self)
        webSocket?.connectionClosed()
    }

    /// Enforces the read deadlines, the idle timeout and a stalled-writer timeout. Called on each timer tick.
    func checkTimers(now: UInt64) {
        guard !isClosed else { return }
        if outputSent < output.count && now &- lastWriteProgress >= loop.context.idleTimeout {
            close()
            return
        }
        if let webSocket {
            webSocket.tick(now: now)
            return
        }
        if outputSent < output.count { return }
        guard case .none = responding else { return }
        if let error = parser.checkDeadline(now: now) {
            reject(error)
            loop.markReady(self)
        } else if isIdle && (loop.isDraining || now &- idleSince >= loop.context.idleTimeout) {
            close()
        }
    }

    // MARK: - HTTP

    /// Parses and handles requests from `bytes` until more input is needed or no more requests can be taken.
    /// - Returns: the number of bytes consumed.
    private func process(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while acceptsMoreRequests {
            if let webSocket { return offset + webSocket.receive(UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            let base = offset
            let result = parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]), now: loop.now)
            offset += result.consumed
            requestBytesIn += result.consumed
            guard let event = result.event else { break }
            switch event {
            case .head(let head):
                begin(head)
            case .body(let range):
                exchange?.body.append(contentsOf: bytes[(base + range.lowerBound)..<(base + range.upperBound)])
            case .end:
                dispatch()
            case .error(let error):
                reject(error)
            }
        }
        return offset
    }

    private func begin(_ head: HTTPRequestHead) {
        exchange = Exchange(head: head, startedAt: parser.requestStartedAt ?? loop.now, clientAddress: clientAddress(of: head))
        if head.expectsContinue && head.version.minor >= 1 {
            output.append(contentsOf: Connection.continueResponse)
        }
    }

    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The request's client: the peer, or the client a trusted proxy peer names in its forwarding header.
    private func clientAddress(of head: HTTPRequestHead) -> String {
        guard let trustedProxy else { return peerHost }
        return loop.context.configuration.trustedProxies.clientAddress(peer: trustedProxy, headers: head.headers).description
    }

    private func dispatch() {
        guard var exchange else { return }
        // The shutdown's time is up (a long request held the loop): start nothing new, the loop closes everything.
        guard !loop.context.isPastDrainDeadline else {
            close()
            return
        }
        sequence &+= 1
        responding = .awaiting
        let head = exchange.head
        if let incoming = head.headers.first(name: "X-Request-Id"), RequestIDGenerator.isAcceptable(incoming) {
            exchange.requestID = incoming
        } else {
            exchange.requestID = loop.nextRequestID()
        }
        let context = loop.context
        switch context.router.resolve(
            method: head.method, path: head.path, isWebSocketUpgrade: WebSocketHandshake.isUpgradeRequest(head))
        {
        case let .webSocket(pattern, endpoint, parameters):
            exchange.route = pattern
            let request = HTTPRequest(
                head: head, body: [], id: exchange.requestID, remoteAddress: remoteAddress,
                clientAddress: exchange.clientAddress, route: pattern, parameters: parameters)
            exchange.body = []
            self.exchange = exchange
            upgrade(request, to: endpoint)
        case let .matched(pattern, handler, parameters):
            exchange.route = pattern
            let request = HTTPRequest(
                head: head, body: exchange.body, id: exchange.requestID, remoteAddress: remoteAddress,
                clientAddress: exchange.clientAddress, route: pattern, parameters: parameters)
            exchange.body = []
            self.exchange = exchange
            let acceptsGzip = context.configuration.compression.isEnabled
                && head.headers.first(name: "Accept-Encoding").map(AcceptEncoding.allowsGzip) == true
            handler(request, HTTPResponder(loop: loop, token: token, sequence: sequence, acceptsGzip: acceptsGzip))
        case .notFound:
            self.exchange = exchange
            receive(.full(.text("not found\n", status: .notFound)), sequence: sequence)
        case .methodNotAllowed(let allow):
            self.exchange = exchange
            var response = HTTPResponse.text("method not allowed\n", status: .methodNotAllowed)
            response.headers.add(name: "Allow", value: allow)
            receive(.full(response), sequence: sequence)
        }
    }

    /// Completes the opening handshake (or refuses it) and hands the connection to the endpoint's handler.
    private func upgrade(_ request: HTTPRequest, to endpoint: WebSocketEndpoint) {
        guard !loop.isDraining else {
            receive(.full(.text("server shutting down\n", status: .serviceUnavailable)), sequence: sequence)
            return
        }
        switch WebSocketHandshake.evaluate(request.head, configuration: endpoint.configuration) {
        case .refuse(let response):
            receive(.full(response), sequence: sequence)
        case .accept(let acceptance):
            let before = output.count
            writeHead(HTTPResponse(status: .switchingProtocols, headers: acceptance.headers), framing: .upgrade)
            exchange?.bytesOut += output.count - before
            finishExchange()
            let session = WebSocketSession(
                connection: self, loop: loop, configuration: endpoint.configuration, acceptance: acceptance)
            webSocket = session
            session.start(request: request, handler: endpoint.handler)
        }
    }

    /// Answers a request the parser rejected, then closes: the rest of the stream cannot be trusted.
    private func reject(_ error: HTTPParseError) {
        closeAfterOutput = true
        let startedAt = exchange?.startedAt ?? parser.requestStartedAt ?? loop.now
        let method = exchange?.head.method ?? HTTPMethod("")
        exchange = Exchange(
            head: HTTPRequestHead(method: method, target: "/", keepAlive: false), startedAt: startedAt,
            clientAddress: exchange?.clientAddress ?? peerHost)
        sequence &+= 1
        responding = .awaiting
        receive(.full(.text(error.message + "\n", status: error.status)), sequence: sequence)
    }

    /// Takes a response part from this request's responder.
    func receive(_ part: ResponsePart, sequence: UInt64) {
        guard !isClosed else { return part.dropped() }
        guard sequence == self.sequence, exchange != nil else {
            part.dropped()
            loop.report(.warning, "a response was sent for a request that was already answered")
            return
        }
        let before = output.count
        switch (responding, part) {
        case (.awaiting, .full(let response)):
            writeHead(response, framing: .length(response.body.count))
            if sendsBody(response.status) { output.append(contentsOf: response.body) }
            exchange?.bytesOut += output.count - before
            finishExchange()
        case (.awaiting, .head(let response, let flow)):
            let chunked = exchange?.head.version.minor ?? 1 >= 1
            writeHead(response, framing: chunked ? .chunked : .untilClose)
            responding = .streaming(chunked: chunked)
            streamFlow = flow
            exchange?.bytesOut += output.count - before
        case (.streaming(let chunked), .chunk(let bytes, let flow)):
            guard !bytes.isEmpty, sendsBody(HTTPStatus(code: exchange?.status ?? 200)) else {
                flow.sent(bytes.count)
                return
            }
            streamUnsent += bytes.count
            if chunked {
                output.append(contentsOf: String(bytes.count, radix: 16).utf8)
                output.append(contentsOf: Connection.crlf)
            }
            output.append(contentsOf: bytes)
            if chunked { output.append(contentsOf: Connection.crlf) }
            exchange?.bytesOut += output.count - before
        case (.streaming(let chunked), .end):
            if chunked && sendsBody(HTTPStatus(code: exchange?.status ?? 200)) {
                output.append(contentsOf: Connection.lastChunk)
            }
            exchange?.bytesOut += output.count - before
            endStream()
            finishExchange()
        case (.streaming, .abort):
            closeAfterOutput = true
            endStream()
            finishExchange()
        default:
            part.dropped()
            loop.report(.warning, "a response part was sent out of order or twice")
            return
        }
        if !isPumping { loop.markReady(self) }
    }

    /// Releases the streamed body's producer: the body ended, failed, or the connection closed.
    private func endStream() {
        streamFlow?.close()
        streamFlow = nil
        streamUnsent = 0
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let lastChunk = Array("0\r\n\r\n".utf8)

    private enum Framing {
        case length(Int)
        case chunked
        case untilClose
        case upgrade
    }

    private func sendsBody(_ status: HTTPStatus) -> Bool {
        !status.forbidsContent && exchange?.head.method != .head
    }

    private func writeHead(_ response: HTTPResponse, framing: Framing) {
        guard let exchange else { return }
        let keepAlive: Bool
        if case .upgrade = framing {
            keepAlive = true
        } else if case .untilClose = framing {
            keepAlive = false
        } else {
            keepAlive = exchange.head.keepAlive && !closeAfterOutput && !peerClosedInput && !loop.isDraining
        }
        if !keepAlive { closeAfterOutput = true }
        self.exchange?.status = response.status.code
        output.append(contentsOf: "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n".utf8)
        for (name, value) in response.headers where !Connection.isManagedHeader(name) {
            appendHeader(name, value)
        }
        if let serverName = loop.context.configuration.serverName { appendHeader("Server", serverName) }
        output.append(contentsOf: Connection.dateLabel)
        output.append(contentsOf: loop.date.bytes)
        output.append(contentsOf: Connection.crlf)
        appendHeader("X-Request-Id", exchange.requestID)
        switch framing {
        case .length(let length) where !response.status.forbidsContent:
            appendHeader("Content-Length", String(length))
        case .chunked where !response.status.forbidsContent:
            appendHeader("Transfer-Encoding", "chunked")
        default:
            break
        }
        if case .upgrade = framing {
            appendHeader("Connection", "Upgrade")
        } else if !keepAlive {
            appendHeader("Connection", "close")
        } else if exchange.head.version.minor == 0 {
            appendHeader("Connection", "keep-alive")
        }
        output.append(contentsOf: Connection.crlf)
    }

    private static let dateLabel = Array("Date: ".utf8)

    private func appendHeader(_ name: String, _ value: String) {
        output.append(contentsOf: name.utf8)
        output.append(0x3A)
        output.append(0x20)
        output.append(contentsOf: value.utf8)
        output.append(contentsOf: Connection.crlf)
    }

    /// Headers the connection writes itself; values set by handlers are ignored.
    private static func isManagedHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: HTTPHeaders.namesEqual(name, "Date")
        case 10: HTTPHeaders.namesEqual(name, "Connection")
        case 12: HTTPHeaders.namesEqual(name, "X-Request-Id")
        case 14: HTTPHeaders.namesEqual(name, "Content-Length")
        case 17: HTTPHeaders.namesEqual(name, "Transfer-Encoding")
        default: false
        }
    }

    private func finishExchange() {
        guard let exchange else { return }
        loop.context.observer?.requestCompleted(HTTPRequestRecord(
            method: exchange.head.method, route: exchange.route, status: exchange.status,
            duration: .nanoseconds(Int64(clamping: csystem_monotonic_ns() &- exchange.startedAt)), bytesIn: requestBytesIn,
            bytesOut: exchange.bytesOut, requestID: exchange.requestID, remoteAddress: remoteAddress,
            clientAddress: exchange.clientAddress))
        self.exchange = nil
        responding = .none
        requestBytesIn = 0
        idleSince = loop.now
    }
}

// MARK: - WebSocket output

extension Connection {
    /// Bytes queued but not yet written.
    var bufferedOutputCount: Int { output.count - outputSent }

    /// Writes a WebSocket frame: straight from the caller's (possibly shared) bytes when nothing is queued and the
    /// socket is writable, so fan-out to idle connections copies nothing; whatever the socket does not take now
    /// is queued and written as the socket drains.
    func writeWebSocket(_ bytes: [UInt8]) {
        guard !isClosed, !bytes.isEmpty else { return }
        var sent = 0
        if outputSent == output.count && canWrite {
            let result = try? syscall("send") { bytes.withUnsafeBytes { csystem_send(fd, $0.baseAddress, $0.count) } }
            switch result {
            case .done(let count)?:
                sent = count
                lastWriteProgress = loop.now
            case .wouldBlock?:
                canWrite = false
            case nil:
                // Let `flush` meet the error again and close the connection the usual way.
                break
            }
        }
        guard sent < bytes.count else { return }
        output.append(contentsOf: bytes[sent...])
        if !isPumping { loop.markReady(self) }
    }

    /// Closes the connection once everything queued is written.
    func closeAfterWriting() {
        closeAfterOutput = true
        if !isPumping { loop.markReady(self) }
    }

    /// Carries out a command from a `WebSocketConnection`. What it writes goes out at once; whatever the socket
    /// does not take, and a close after writing, schedule the pump themselves (`writeWebSocket`,
    /// `closeAfterWriting`), so a fan-out that the sockets absorb costs no pass over the connections.
    func receive(_ command: WebSocketCommand) {
        guard !isClosed, let webSocket else { return }
        webSocket.perform(command)
    }

    /// Graceful shutdown: upgraded connections start their closing handshake with 1001. Others read what has
    /// arrived (its epoll event may come later in the loop's batch, or never for a connection adopted from the
    /// backlog just now), so a request sent before the shutdown is answered; with nothing to answer they close.
    func startDraining() {
        if let webSocket {
            webSocket.close(code: .goingAway, reason: "server shutting down")
            return
        }
        canRead = true
        pump()
        if isIdle { close() }
    }
}
