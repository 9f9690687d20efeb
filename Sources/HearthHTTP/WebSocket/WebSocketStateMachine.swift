// Pure Swift (no Glibc, no Foundation): compiled directly into the WebSocket frame fuzz target.

/// The receiving side of one WebSocket connection and its closing handshake, as a state machine: bytes and clock
/// ticks go in, actions come out; it never touches a socket (RFC 6455 §5–7).
///
/// It decodes frames incrementally (a header may arrive a byte at a time), unmasks payloads, reassembles
/// fragmented messages with control frames interleaved, validates text as UTF-8 while it arrives (an invalid
/// byte fails the connection with 1007 even in the middle of a fragment), inflates permessage-deflate messages
/// within the message-size limit, answers pings, runs the closing handshake, and drives keep-alive pings.
///
/// Drive it like the HTTP parser: call `receive(_:now:)` until it has consumed all bytes and returned no action;
/// call `tick(now:)` periodically. Times are monotonic nanoseconds from the caller's clock.
struct WebSocketStateMachine {
    /// Sizes, timeouts and what the peer must do.
    struct Options: Sendable {
        /// Frames with a longer payload fail the connection with 1009.
        var maxFrameSize: Int = 1 << 20
        /// Messages whose payload (after decompression) is longer fail the connection with 1009.
        var maxMessageSize: Int = 1 << 20
        /// Whether incoming frames must be masked (true when we are the server) or must not be (client).
        var expectsMaskedFrames = true
        /// How long to wait for the peer's close frame after sending ours.
        var closeTimeout: UInt64 = 5_000_000_000
        /// Send a ping after this long without input; nil disables keep-alive pings.
        var pingInterval: UInt64?
        /// Fail the connection (1011) when a keep-alive ping stays unanswered this long.
        var pongTimeout: UInt64 = 10_000_000_000
    }

    /// What the caller must do next.
    enum Action: Equatable {
        /// Hand a complete data message to the application.
        case message(WebSocketMessage)
        /// The peer pinged: send a pong with exactly this payload (and tell the application if it cares).
        case replyPong([UInt8])
        /// The peer sent a pong (an answer to our ping or an unsolicited heartbeat).
        case pong([UInt8])
        /// Keep-alive: send a ping with this payload.
        case sendPing([UInt8])
        /// The peer started the closing handshake: send a close frame echoing `code` (an empty one when nil),
        /// then close the socket once it is written. `code` nil means the frame carried no status (1005).
        case closeReceived(code: WebSocketCloseCode?, reason: String)
        /// The peer answered our close frame (or timed out doing so): close the socket.
        case closeSocket
        /// The peer broke the protocol or a limit: send a close frame with this code and reason, then close
        /// the socket once it is written.
        case fail(WebSocketCloseCode, reason: String)
    }

    /// Where the closing handshake stands.
    enum ClosingState: Equatable {
        /// Data flows both ways.
        case open
        /// We sent a close frame and wait for the peer's until the deadline; incoming data is discarded.
        case closeSent(deadline: UInt64)
        /// Nothing more is read or written.
        case closed
    }

    private enum Reading {
        case header
        case payload
    }

    private struct FrameHead {
        var fin = false
        var rsv1 = false
        var opcode = WebSocketOpcode.continuation
        var length = 0
        var mask: (UInt8, UInt8, UInt8, UInt8)?
    }

    let options: Options
    /// Set when permessage-deflate was negotiated; RSV1 is a protocol error without it.
    private let inflater: (any WebSocketInflater)?
    private(set) var closing = ClosingState.open
    private var reading = Reading.header
    private var header: [UInt8] = []
    private var frame = FrameHead()
    private var frameRemaining = 0
    private var frameOffset = 0
    /// The data message in progress: its kind, whether it is compressed, and its (unmasked) bytes so far.
    private var messageKind: WebSocketMessage.Kind?
    private var messageCompressed = false
    private var message: [UInt8] = []
    private var control: [UInt8] = []
    private var utf8 = UTF8Validator()
    private var lastInput: UInt64
    private var pingSentAt: UInt64?
    private var pingCounter: UInt64 = 0

    /// A machine for a connection that opened at `now`; pass an inflater when permessage-deflate was agreed.
    init(options: Options, inflater: (any WebSocketInflater)? = nil, now: UInt64) {
        self.options = options
        self.inflater = inflater
        lastInput = now
    }

    /// Whether data frames may still be sent (no close frame was sent or received).
    var canSendData: Bool { closing == .open }

    /// Whether no message is partly received: nothing is buffered on behalf of the peer.
    var isIdle: Bool { messageKind == nil && reading == .header && header.isEmpty }

    // MARK: - Input

    /// Consumes bytes until one action is due or the bytes are used up.
    /// - Returns: how many bytes were consumed, and the action, if any.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> (consumed: Int, action: Action?) {
        guard closing != .closed else { return (bytes.count, nil) }
        if !bytes.isEmpty { lastInput = now }
        var offset = 0
        while offset < bytes.count || (reading == .payload && frameRemaining == 0) {
            switch reading {
            case .header:
                let (used, action) = readHeader(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                offset += used
                if let action { return (offset, finish(action)) }
            case .payload:
                let take = min(frameRemaining, bytes.count - offset)
                if let action = readPayload(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)])) {
                    return (offset + take, finish(action))
                }
                offset += take
                if frameRemaining == 0, let action = endFrame() { return (offset, finish(action)) }
            }
        }
        return (offset, nil)
    }

    /// Records the state change an action implies before handing it out.
    private mutating func finish(_ action: Action) -> Action {
        switch action {
        case .closeReceived, .closeSocket, .fail:
            closing = .closed
            releaseBuffers()
        case .message, .replyPong, .pong, .sendPing:
            break
        }
        return action
    }

    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer) -> (Int, Action?) {
        var used = 0
        while used < bytes.count {
            header.append(bytes[used])
            used += 1
            guard header.count >= 2 else { continue }
            if header.count == 2, let failure = checkFirstTwoBytes() { return (used, failure) }
            let lengthBytes = header[1] & 0x7F == 126 ? 2 : header[1] & 0x7F == 127 ? 8 : 0
            let maskBytes = header[1] & 0x80 != 0 ? 4 : 0
            guard header.count == 2 + lengthBytes + maskBytes else { continue }
            return (used, beginFrame(lengthBytes: lengthBytes, maskBytes: maskBytes))
        }
        return (used, nil)
    }

    /// The checks that need only the first two bytes, so a bad frame fails before its length arrives.
    private mutating func checkFirstTwoBytes() -> Action? {
        let first = header[0]
        let second = header[1]
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            return .fail(.protocolError, reason: "reserved opcode \(first & 0x0F)")
        }
        if first & 0x30 != 0 { return .fail(.protocolError, reason: "RSV2/RSV3 set without a negotiated extension") }
        if first & 0x40 != 0 && (inflater == nil || opcode == .continuation || opcode.isControl) {
            return .fail(.protocolError, reason: "RSV1 set where no extension allows it")
        }
        if (second & 0x80 != 0) != options.expectsMaskedFrames {
            return .fail(.protocolError, reason: options.expectsMaskedFrames ? "unmasked client frame" : "masked server frame")
        }
        if opcode.isControl {
            if first & 0x80 == 0 { return .fail(.protocolError, reason: "fragmented control frame") }
            if second & 0x7F > 125 { return .fail(.protocolError, reason: "control frame longer than 125 bytes") }
        } else if opcode == .continuation {
            if messageKind == nil { return .fail(.protocolError, reason: "continuation frame without a message") }
        } else if messageKind != nil {
            return .fail(.protocolError, reason: "new data frame inside a fragmented message")
        }
        return nil
    }

    private mutating func beginFrame(lengthBytes: Int, maskBytes: Int) -> Action? {
        var length: UInt64 = UInt64(header[1] & 0x7F)
        if lengthBytes > 0 {
            length = 0
            for index in 2..<(2 + lengthBytes) { length = length << 8 | UInt64(header[index]) }
            if lengthBytes == 8 && length >> 63 != 0 {
                return .fail(.protocolError, reason: "64-bit payload length with the most significant bit set")
            }
        }
        let opcode = WebSocketOpcode(rawValue: header[0] & 0x0F)!
        if length > UInt64(options.maxFrameSize) && !opcode.isControl {
            return .fail(.messageTooBig, reason: "frame larger than \(options.maxFrameSize) bytes")
        }
        if !opcode.isControl && UInt64(message.count) + length > UInt64(options.maxMessageSize) {
            return .fail(.messageTooBig, reason: "message larger than \(options.maxMessageSize) bytes")
        }
        frame = FrameHead(fin: header[0] & 0x80 != 0, rsv1: header[0] & 0x40 != 0, opcode: opcode, length: Int(length))
        if maskBytes > 0 {
            let key = 2 + lengthBytes
            frame.mask = (header[key], header[key + 1], header[key + 2], header[key + 3])
        }
        header.removeAll(keepingCapacity: true)
        frameRemaining = Int(length)
        frameOffset = 0
        reading = .payload
        switch opcode {
        case .text, .binary:
            messageKind = opcode == .text ? .text : .binary
            messageCompressed = frame.rsv1
            utf8.reset()
        case .continuation, .close, .ping, .pong:
            break
        }
        if opcode.isControl {
            control.removeAll(keepingCapacity: true)
        } else {
            message.reserveCapacity(message.count + Int(length))
        }
        return nil
    }

    private mutating func readPayload(_ bytes: UnsafeRawBufferPointer) -> Action? {
        guard !bytes.isEmpty else { return nil }
        frameRemaining -= bytes.count
        let offset = frameOffset
        frameOffset += bytes.count
        if frame.opcode.isControl {
            WebSocketStateMachine.append(bytes, to: &control, mask: frame.mask, offset: offset)
            return nil
        }
        // Data arriving after our close frame is read and dropped.
        guard closing == .open else { return nil }
        let start = message.count
        WebSocketStateMachine.append(bytes, to: &message, mask: frame.mask, offset: offset)
        if messageKind == .text && !messageCompressed {
            var validator = utf8
            let valid = message.withUnsafeBytes { validator.consume(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            utf8 = validator
            if !valid { return .fail(.invalidPayload, reason: "text message is not valid UTF-8") }
        }
        return nil
    }

    /// Appends payload bytes, unmasking them with `mask` from the frame's byte `offset` on.
    private static func append(
        _ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8], mask: (UInt8, UInt8, UInt8, UInt8)?, offset: Int
    ) {
        let start = buffer.count
        buffer.append(contentsOf: bytes)
        guard let mask else { return }
        let key = (UInt32(mask.0) << 24 | UInt32(mask.1) << 16 | UInt32(mask.2) << 8 | UInt32(mask.3))
        buffer.withUnsafeMutableBufferPointer { output in
            var phase = offset & 3
            for index in start..<output.count {
                output[index] ^= UInt8(truncatingIfNeeded: key >> UInt32(24 - 8 * phase))
                phase = (phase + 1) & 3
            }
        }
    }

    private mutating func endFrame() -> Action? {
        reading = .header
        switch frame.opcode {
        case .ping:
            return closing == .open ? .replyPong(takeControl()) : nil
        case .pong:
            pingSentAt = nil
            return .pong(takeControl())
        case .close:
            return receivedClose()
        case .text, .binary, .continuation:
            guard frame.fin else { return nil }
            return completeMessage()
        }
    }

    private mutating func takeControl() -> [UInt8] {
        let payload = control
        control = []
        return payload
    }

    private mutating func receivedClose() -> Action {
        if case .closeSent = closing { return .closeSocket }
        let payload = takeControl()
        switch payload.count {
        case 0:
            return .closeReceived(code: nil, reason: "")
        case 1:
            return .fail(.protocolError, reason: "close frame with a 1-byte payload")
        default:
            let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
            guard code.isValidOnTheWire else { return .fail(.protocolError, reason: "invalid close code \(code)") }
            let reasonBytes = payload[2...]
            guard reasonBytes.withUnsafeBytes(UTF8Validator.isValid) else {
                return .fail(.invalidPayload, reason: "close reason is not valid UTF-8")
            }
            return .closeReceived(code: code, reason: String(decoding: reasonBytes, as: UTF8.self))
        }
    }

    private mutating func completeMessage() -> Action? {
        let kind = messageKind ?? .binary
        var payload = message
        message = []
        messageKind = nil
        guard closing == .open else { return nil }
        if messageCompressed, let inflater {
            switch inflater.inflate(payload, limit: options.maxMessageSize) {
            case .inflated(let bytes): payload = bytes
            case .tooLarge: return .fail(.messageTooBig, reason: "message larger than \(options.maxMessageSize) bytes")
            case .corrupt: return .fail(.invalidPayload, reason: "compressed message is not valid DEFLATE data")
            }
            if kind == .text && !payload.withUnsafeBytes(UTF8Validator.isValid) {
                return .fail(.invalidPayload, reason: "text message is not valid UTF-8")
            }
        } else if kind == .text && !utf8.isAtBoundary {
            return .fail(.invalidPayload, reason: "text message ends inside a UTF-8 sequence")
        }
        return .message(WebSocketMessage(kind: kind, payload: payload))
    }

    private mutating func releaseBuffers() {
        message = []
        control = []
        header = []
        messageKind = nil
    }

    // MARK: - Closing and timers

    /// Records that we are sending a close frame now.
    /// - Returns: false when a close frame was already sent or received (send nothing then).
    mutating func startClosing(now: UInt64) -> Bool {
        guard closing == .open else { return false }
        closing = .closeSent(deadline: now &+ options.closeTimeout)
        return true
    }

    /// Checks the close deadline and the keep-alive schedule.
    mutating func tick(now: UInt64) -> Action? {
        switch closing {
        case .closed:
            return nil
        case .closeSent(let deadline):
            return now >= deadline ? finish(.closeSocket) : nil
        case .open:
            guard let interval = options.pingInterval else { return nil }
            if let sentAt = pingSentAt {
                guard now &- sentAt >= options.pongTimeout else { return nil }
                return finish(.fail(.internalError, reason: "keep-alive ping was not answered"))
            }
            guard now &- lastInput >= interval else { return nil }
            pingSentAt = now
            pingCounter &+= 1
            return .sendPing(WebSocketStateMachine.bigEndianBytes(pingCounter))
        }
    }

    private static func bigEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8((value >> UInt64(56 - 8 * $0)) & 0xFF) }
    }
}
