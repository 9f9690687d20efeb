// libFuzzer entry point for HearthHTTP's WebSocket frame state machine, compiled together with its pure-Swift
// sources (see `sources`) by tools/fuzz/run-all. zlib stays out: permessage-deflate is exercised by unit tests.
//
// The first input byte chooses the mode (bit 0: server, expecting masked frames, or client) and the split
// points; the rest is the byte stream, fed in pieces exactly like a connection does. Invariants checked for
// any input: consumption stays within the input, messages respect the limits, text messages are valid UTF-8,
// control payloads stay within 125 bytes, and after a close or failure no further action appears.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let seed = Int(data[0])
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    var options = WebSocketStateMachine.Options()
    options.expectsMaskedFrames = seed & 1 == 0
    options.maxFrameSize = 512
    options.maxMessageSize = 1024
    options.pingInterval = 50
    options.pongTimeout = 20
    options.closeTimeout = 30
    var machine = WebSocketStateMachine(options: options, now: 0)
    var position = 0
    var step = 0
    var now: UInt64 = 0
    var finished = false
    while position < input.count {
        let piece = seed >> 1 == 0 ? input.count : 1 + ((seed >> 1) &* (step + 1)) % 23
        let end = min(input.count, position + piece)
        var offset = position
        while offset < end {
            let (consumed, action) = machine.receive(UnsafeRawBufferPointer(rebasing: input[offset..<end]), now: now)
            precondition(consumed >= 0 && consumed <= end - offset, "consumed out of range")
            offset += consumed
            if let action {
                precondition(!finished, "an action after the connection was closed or failed")
                check(action, options: options, finished: &finished)
            } else if consumed == 0 {
                break
            }
        }
        position = end
        step += 1
        now += 7
        if let action = machine.tick(now: now) {
            precondition(!finished, "a timer action after the connection was closed or failed")
            check(action, options: options, finished: &finished)
        }
    }
    return 0
}

private func check(_ action: WebSocketStateMachine.Action, options: WebSocketStateMachine.Options, finished: inout Bool) {
    switch action {
    case .message(let message):
        precondition(message.payload.count <= options.maxMessageSize, "message limit not enforced")
        if message.kind == .text {
            precondition(message.payload.withUnsafeBytes(UTF8Validator.isValid), "invalid UTF-8 delivered as text")
        }
    case .replyPong(let payload), .pong(let payload):
        precondition(payload.count <= 125, "control payload over 125 bytes")
    case .sendPing:
        break
    case .closeReceived(let code, _):
        precondition(code.map(\.isValidOnTheWire) ?? true, "invalid close code accepted")
        finished = true
    case .closeSocket, .fail:
        finished = true
    }
}
