/// The WebSocket side of an upgraded `Connection`, confined to the connection's event-loop thread: it feeds
/// input to the state machine, carries out the machine's actions, writes outgoing frames (compressing them
/// when agreed) and enforces the slow-consumer policy. The socket itself stays with the connection.
final class WebSocketSession {
    private unowned let connection: Connection
    private let loop: EventLoop
    private let configuration: WebSocketConfiguration
    private let deflate: PerMessageDeflateParameters?
    private var machine: WebSocketStateMachine
    /// Set only for connections with server context takeover; the others borrow the loop's.
    private let ownDeflater: PerMessageDeflate.Deflater?
    let handle: WebSocketConnection
    private var handler: (any WebSocketHandler)?
    /// The code and reason we sent in our close frame, reported to the handler when the handshake ends.
    private var sentClose: (WebSocketCloseCode, String)?
    private var isDroppingMessages = false

    init(connection: Connection, loop: EventLoop, configuration: WebSocketConfiguration, acceptance: WebSocketHandshake.Acceptance) {
        self.connection = connection
        self.loop = loop
        self.configuration = configuration
        deflate = acceptance.deflate
        var options = WebSocketStateMachine.Options()
        options.maxFrameSize = configuration.maxFrameSize
        options.maxMessageSize = configuration.maxMessageSize
        options.closeTimeout = ServerContext.nanoseconds(configuration.closeTimeout)
        options.pingInterval = configuration.pingInterval.map(ServerContext.nanoseconds)
        options.pongTimeout = ServerContext.nanoseconds(configuration.pongTimeout)
        var inflater: (any WebSocketInflater)?
        var ownDeflater: PerMessageDeflate.Deflater?
        if let deflate, let compression = configuration.compression {
            inflater = deflate.clientNoContextTakeover
                ? loop.zlibPool.inflater() : PerMessageDeflate.Inflater(resetsAfterMessage: false)
            if !deflate.serverNoContextTakeover {
                ownDeflater = PerMessageDeflate.Deflater(
                    windowBits: deflate.serverMaxWindowBits, memoryLevel: compression.memoryLevel,
                    level: compression.level, resetsAfterMessage: false)
            }
        }
        self.ownDeflater = ownDeflater
        machine = WebSocketStateMachine(options: options, inflater: inflater, now: loop.now)
        handle = WebSocketConnection(
            loop: loop, token: connection.token, subprotocol: acceptance.subprotocol, isCompressed: deflate != nil,
            compression: configuration.compression, remoteAddress: connection.remoteAddress)
    }

    /// Hands the connection to the application.
    func start(request: HTTPRequest, handler makeHandler: WebSocketUpgradeHandler) {
        handler = makeHandler(request, handle)
    }

    // MARK: - Input

    /// Feeds received bytes to the machine and acts on what it decides.
    /// - Returns: the bytes consumed: all of them, unless the connection stopped reading.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count && !connection.isClosed {
            let (consumed, action) = machine.receive(UnsafeRawBufferPointer(rebasing: bytes[offset...]), now: loop.now)
            offset += consumed
            if let action { perform(action) }
            if action == nil && consumed == 0 { break }
        }
        return bytes.count
    }

    private func perform(_ action: WebSocketStateMachine.Action) {
        switch action {
        case .message(let message):
            handler?.webSocket(handle, received: message)
        case .replyPong(let payload):
            writeControl(.pong, payload)
            handler?.webSocket(handle, receivedPing: payload)
        case .pong(let payload):
            handler?.webSocket(handle, receivedPong: payload)
        case .sendPing(let payload):
            writeControl(.ping, payload)
        case .closeReceived(let code, let reason):
            writeControl(.close, WebSocketFrameEncoding.closePayload(code: code, reason: ""))
            connection.closeAfterWriting()
            finish(code ?? .noStatusReceived, reason)
        case .closeSocket:
            let (code, reason) = sentClose ?? (.abnormalClosure, "")
            finish(code, reason)
            connection.close()
        case .fail(let code, let reason):
            writeControl(.close, WebSocketFrameEncoding.closePayload(code: code, reason: reason))
            connection.closeAfterWriting()
            finish(code, reason)
        }
    }

    /// Tells the handler, once, that the connection is over, and lets go of it.
    private func finish(_ code: WebSocketCloseCode, _ reason: String) {
        guard let handler else { return }
        self.handler = nil
        handler.webSocket(handle, closedWith: code, reason: reason)
    }

    // MARK: - Commands and timers

    /// Carries out a command from the application.
    func perform(_ command: WebSocketCommand) {
        switch command {
        case .frame(let frame):
            send(frame)
        case .ping(let payload):
            if machine.canSendData { writeControl(.ping, payload) }
        case .close(let code, let reason):
            close(code: code, reason: reason)
        }
    }

    /// Sends a close frame and waits (up to the close timeout) for the client's.
    func close(code: WebSocketCloseCode, reason: String) {
        guard machine.startClosing(now: loop.now) else { return }
        sentClose = (code, reason)
        writeControl(.close, WebSocketFrameEncoding.closePayload(code: code, reason: reason))
    }

    /// Runs the machine's deadlines and the handler's.
    func tick(now: UInt64) {
        if let action = machine.tick(now: now) { perform(action) }
        if let handler, !connection.isClosed { handler.webSocket(handle, tick: now) }
    }

    /// The socket closed; tells the handler if the closing handshake never finished.
    func connectionClosed() {
        let (code, reason) = sentClose ?? (.abnormalClosure, "")
        finish(code, reason)
    }

    // MARK: - Output

    private func send(_ frame: WebSocketEncodedFrame) {
        guard machine.canSendData, !connection.isClosed, admitsDataFrame() else { return }
        guard let deflate, let compression = configuration.compression,
            frame.payload.count >= compression.minimumMessageSize
        else {
            connection.writeWebSocket(frame.plain)
            return
        }
        if deflate.serverNoContextTakeover, let deflated = frame.deflated,
            frame.deflatedWindowBits <= deflate.serverMaxWindowBits
        {
            connection.writeWebSocket(deflated)
            return
        }
        let deflater = ownDeflater ?? loop.zlibPool.deflater(windowBits: deflate.serverMaxWindowBits, compression: compression)
        guard let compressed = deflater?.compress(frame.payload) else {
            connection.writeWebSocket(frame.plain)
            return
        }
        connection.writeWebSocket(WebSocketFrameEncoding.frame(opcode: frame.opcode, payload: compressed, rsv1: true))
    }

    /// Applies the slow-consumer policy before a data frame is queued.
    private func admitsDataFrame() -> Bool {
        guard connection.bufferedOutputCount > configuration.maxBufferedOutputBytes else {
            isDroppingMessages = false
            return true
        }
        switch configuration.slowConsumerPolicy {
        case .close:
            loop.report(.warning, "closing a slow WebSocket consumer: \(connection.bufferedOutputCount) bytes unsent", remote: connection.remoteAddress)
            sentClose = (.policyViolation, "slow consumer")
            connection.close()
        case .dropMessages:
            if !isDroppingMessages {
                loop.report(.warning, "dropping messages for a slow WebSocket consumer", remote: connection.remoteAddress)
            }
            isDroppingMessages = true
        }
        return false
    }

    private func writeControl(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        connection.writeWebSocket(WebSocketFrameEncoding.frame(opcode: opcode, payload: payload))
    }
}
