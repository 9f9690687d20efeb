@testable import HearthHTTP
import Testing

/// Drives a machine with client frames and collects its actions.
struct MachineHarness {
    var machine: WebSocketStateMachine
    var now: UInt64 = 0

    init(options: WebSocketStateMachine.Options = WebSocketStateMachine.Options(), inflater: (any WebSocketInflater)? = nil) {
        machine = WebSocketStateMachine(options: options, inflater: inflater, now: 0)
    }

    /// Feeds `bytes` in pieces of `pieceSize` (all at once when nil) and returns every action, in order.
    mutating func feed(_ bytes: [UInt8], pieceSize: Int? = nil) -> [WebSocketStateMachine.Action] {
        var actions: [WebSocketStateMachine.Action] = []
        var start = 0
        let step = pieceSize ?? max(bytes.count, 1)
        while start < bytes.count {
            let piece = Array(bytes[start..<min(bytes.count, start + step)])
            start += step
            var offset = 0
            while offset < piece.count {
                let (consumed, action) = piece.withUnsafeBytes {
                    machine.receive(UnsafeRawBufferPointer(rebasing: $0[offset...]), now: now)
                }
                offset += consumed
                if let action { actions.append(action) }
                if action == nil && consumed == 0 { break }
            }
        }
        return actions
    }

    static func frame(
        _ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false, mask: UInt32? = 0x3759_11AB
    ) -> [UInt8] {
        WebSocketFrameEncoding.frame(opcode: opcode, payload: payload, fin: fin, rsv1: rsv1, mask: mask)
    }

    static func text(_ text: String, fin: Bool = true) -> [UInt8] { frame(.text, Array(text.utf8), fin: fin) }
}

extension WebSocketStateMachine.Action {
    static func text(_ text: String) -> Self { .message(WebSocketMessage(kind: .text, payload: Array(text.utf8))) }
    static func binary(_ bytes: [UInt8]) -> Self { .message(WebSocketMessage(kind: .binary, payload: bytes)) }

    var failureCode: WebSocketCloseCode? {
        if case .fail(let code, _) = self { return code }
        return nil
    }
}

@Suite struct WebSocketStateMachineTests {
    @Test func deliversMaskedTextAndBinaryMessages() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.text("hello")) == [.text("hello")])
        #expect(harness.feed(MachineHarness.frame(.binary, [0, 1, 2, 255])) == [.binary([0, 1, 2, 255])])
    }

    @Test func decodesFramesFedOneByteAtATime() {
        var harness = MachineHarness()
        let bytes = MachineHarness.text("split") + MachineHarness.frame(.ping, [9]) + MachineHarness.frame(.binary, [])
        #expect(harness.feed(bytes, pieceSize: 1) == [.text("split"), .replyPong([9]), .binary([])])
    }

    @Test func rejectsUnmaskedClientFrames() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.text, [0x61], mask: nil)).first?.failureCode == .protocolError)
    }

    @Test func rejectsMaskedFramesWhenActingAsClient() {
        var options = WebSocketStateMachine.Options()
        options.expectsMaskedFrames = false
        var harness = MachineHarness(options: options)
        #expect(harness.feed(MachineHarness.frame(.text, [0x61], mask: nil)) == [.text("a")])
        #expect(harness.feed(MachineHarness.frame(.text, [0x61])).first?.failureCode == .protocolError)
    }

    @Test(arguments: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func failsReservedOpcodesWithProtocolError(opcode: UInt8) {
        var harness = MachineHarness()
        #expect(harness.feed([0x80 | opcode, 0x80, 1, 2, 3, 4]).first?.failureCode == .protocolError)
    }

    @Test(arguments: [0x40, 0x20, 0x10] as [UInt8])
    func failsReservedBitsWithoutAnExtension(bit: UInt8) {
        var harness = MachineHarness()
        var frame = MachineHarness.text("x")
        frame[0] |= bit
        #expect(harness.feed(frame).first?.failureCode == .protocolError)
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
    func decodesPayloadLengthsAtTheEncodingEdges(length: Int) {
        var harness = MachineHarness()
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let frame = MachineHarness.frame(.binary, payload)
        let expectedHeader = length < 126 ? 2 : length <= 65535 ? 4 : 10
        #expect(frame.count == expectedHeader + 4 + length)
        #expect(harness.feed(frame, pieceSize: 4096) == [.binary(payload)])
    }

    @Test func acceptsNonMinimalLengthEncodings() {
        var harness = MachineHarness()
        // A 3-byte payload announced with the 16-bit form, then with the 64-bit form.
        let mask: [UInt8] = [0, 0, 0, 0]
        let sixteen: [UInt8] = [0x82, 0x80 | 126, 0, 3] + mask + [1, 2, 3]
        let sixtyFour: [UInt8] = [0x82, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0, 3] + mask + [4, 5, 6]
        #expect(harness.feed(sixteen + sixtyFour) == [.binary([1, 2, 3]), .binary([4, 5, 6])])
    }

    @Test func failsA64BitLengthWithTheMostSignificantBitSet() {
        var harness = MachineHarness()
        let frame: [UInt8] = [0x82, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        #expect(harness.feed(frame).first?.failureCode == .protocolError)
    }

    @Test func failsControlFramesLongerThan125Bytes() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.ping, Array(repeating: 1, count: 126))).first?.failureCode == .protocolError)
        var exact = MachineHarness()
        #expect(exact.feed(MachineHarness.frame(.ping, Array(repeating: 1, count: 125))) == [.replyPong(Array(repeating: 1, count: 125))])
    }

    @Test func failsFragmentedControlFrames() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.ping, [1], fin: false)).first?.failureCode == .protocolError)
    }

    @Test func reassemblesFragmentsWithControlFramesInterleaved() {
        var harness = MachineHarness()
        let bytes = MachineHarness.text("fra", fin: false) + MachineHarness.frame(.ping, [1])
            + MachineHarness.frame(.continuation, Array("gme".utf8), fin: false) + MachineHarness.frame(.pong, [2])
            + MachineHarness.frame(.continuation, Array("nted".utf8))
        #expect(harness.feed(bytes) == [.replyPong([1]), .pong([2]), .text("fragmented")])
    }

    @Test func failsAContinuationWithoutAMessageAndANewMessageInsideAFragmentedOne() {
        var lone = MachineHarness()
        #expect(lone.feed(MachineHarness.frame(.continuation, [1])).first?.failureCode == .protocolError)
        var nested = MachineHarness()
        #expect(nested.feed(MachineHarness.text("a", fin: false) + MachineHarness.text("b")).first?.failureCode == .protocolError)
    }

    @Test func validatesUTF8SplitAcrossFragmentsAtEveryByteBoundary() {
        let text = "κόσμε – 𝄞 ok"
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            var harness = MachineHarness()
            let frames = MachineHarness.frame(.text, Array(bytes[..<split]), fin: false)
                + MachineHarness.frame(.continuation, Array(bytes[split...]))
            #expect(harness.feed(frames) == [.text(text)], "split at \(split)")
        }
    }

    @Test func failsInvalidUTF8AsSoonAsTheBadByteArrivesInsideAFragment() {
        var harness = MachineHarness()
        // The first fragment ends with a byte that can never start or continue UTF-8; the message is not final.
        let actions = harness.feed(MachineHarness.frame(.text, [0x61, 0xFF], fin: false))
        #expect(actions.first?.failureCode == .invalidPayload)
    }

    @Test func failsInvalidUTF8InTheMiddleOfAFrameBeforeTheFrameEnds() {
        var harness = MachineHarness()
        let frame = MachineHarness.frame(.text, [0xCE, 0xBA, 0xED, 0xA0, 0x80] + Array(repeating: 0x61, count: 100))
        // Only the header and the first 5 payload bytes (a surrogate) are fed.
        #expect(harness.feed(Array(frame.prefix(6 + 5))).first?.failureCode == .invalidPayload)
    }

    @Test func failsATextMessageEndingInsideASequence() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.text, [0x61, 0xE2, 0x82])).first?.failureCode == .invalidPayload)
    }

    @Test func answersPingsWithTheSamePayloadAndReportsPongs() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.ping, Array("abc".utf8))) == [.replyPong(Array("abc".utf8))])
        #expect(harness.feed(MachineHarness.frame(.pong, [])) == [.pong([])])
    }

    @Test func echoesAValidCloseAndStopsReading() {
        var harness = MachineHarness()
        let close = MachineHarness.frame(.close, WebSocketFrameEncoding.closePayload(code: .normalClosure, reason: "bye"))
        #expect(harness.feed(close + MachineHarness.text("ignored")) == [.closeReceived(code: .normalClosure, reason: "bye")])
        #expect(harness.machine.closing == .closed)
    }

    @Test func reportsAnEmptyCloseAsNoStatus() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.close, [])) == [.closeReceived(code: nil, reason: "")])
    }

    @Test func failsACloseWithAOneBytePayload() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.close, [0x03])).first?.failureCode == .protocolError)
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func failsInvalidCloseCodes(code: UInt16) {
        var harness = MachineHarness()
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        #expect(harness.feed(MachineHarness.frame(.close, payload)).first?.failureCode == .protocolError)
    }

    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] as [UInt16])
    func acceptsValidCloseCodes(code: UInt16) {
        var harness = MachineHarness()
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        #expect(harness.feed(MachineHarness.frame(.close, payload)) == [.closeReceived(code: WebSocketCloseCode(code), reason: "")])
    }

    @Test func failsACloseReasonThatIsNotUTF8() {
        var harness = MachineHarness()
        #expect(harness.feed(MachineHarness.frame(.close, [0x03, 0xE8, 0xFF])).first?.failureCode == .invalidPayload)
    }

    @Test func enforcesTheFrameSizeLimitAtItsEdge() {
        var options = WebSocketStateMachine.Options()
        options.maxFrameSize = 100
        var atLimit = MachineHarness(options: options)
        #expect(atLimit.feed(MachineHarness.frame(.binary, Array(repeating: 0, count: 100))).count == 1)
        var overLimit = MachineHarness(options: options)
        // Failed from the header alone, before any payload arrives.
        let header = Array(MachineHarness.frame(.binary, Array(repeating: 0, count: 101)).prefix(6))
        #expect(overLimit.feed(header).first?.failureCode == .messageTooBig)
    }

    @Test func enforcesTheMessageSizeLimitAcrossFragments() {
        var options = WebSocketStateMachine.Options()
        options.maxMessageSize = 10
        var atLimit = MachineHarness(options: options)
        let exact = MachineHarness.frame(.binary, Array(repeating: 1, count: 6), fin: false)
            + MachineHarness.frame(.continuation, Array(repeating: 2, count: 4))
        #expect(atLimit.feed(exact) == [.binary(Array(repeating: 1, count: 6) + Array(repeating: 2, count: 4))])
        var overLimit = MachineHarness(options: options)
        let over = MachineHarness.frame(.binary, Array(repeating: 1, count: 6), fin: false)
            + MachineHarness.frame(.continuation, Array(repeating: 2, count: 5))
        #expect(overLimit.feed(over).first?.failureCode == .messageTooBig)
    }

    @Test func waitsForTheClientsCloseAfterSendingOursAndDropsDataMeanwhile() {
        var harness = MachineHarness()
        let first = harness.machine.startClosing(now: 0)
        let second = harness.machine.startClosing(now: 0)
        #expect(first && !second)
        #expect(!harness.machine.canSendData)
        #expect(harness.feed(MachineHarness.text("late")).isEmpty)
        #expect(harness.feed(MachineHarness.frame(.close, [0x03, 0xE8])) == [.closeSocket])
    }

    @Test func closesTheSocketWhenTheClientNeverAnswersOurClose() {
        var options = WebSocketStateMachine.Options()
        options.closeTimeout = 100
        var harness = MachineHarness(options: options)
        _ = harness.machine.startClosing(now: 0)
        #expect(harness.machine.tick(now: 99) == nil)
        #expect(harness.machine.tick(now: 100) == .closeSocket)
    }

    @Test func pingsAnIdleClientAndFailsWhenThePongNeverComes() {
        var options = WebSocketStateMachine.Options()
        options.pingInterval = 1_000
        options.pongTimeout = 500
        var harness = MachineHarness(options: options)
        #expect(harness.machine.tick(now: 999) == nil)
        guard case .sendPing = harness.machine.tick(now: 1_000) else {
            Issue.record("expected a keep-alive ping")
            return
        }
        #expect(harness.machine.tick(now: 1_499) == nil)
        #expect(harness.machine.tick(now: 1_500)?.failureCode == .internalError)
    }

    @Test func aPongClearsTheKeepAliveDeadline() {
        var options = WebSocketStateMachine.Options()
        options.pingInterval = 1_000
        options.pongTimeout = 500
        var harness = MachineHarness(options: options)
        _ = harness.machine.tick(now: 1_000)
        harness.now = 1_200
        #expect(harness.feed(MachineHarness.frame(.pong, [])) == [.pong([])])
        #expect(harness.machine.tick(now: 1_600) == nil)
        guard case .sendPing = harness.machine.tick(now: 2_200) else {
            Issue.record("expected the next keep-alive ping")
            return
        }
    }

    @Test func inputDefersTheKeepAlivePing() {
        var options = WebSocketStateMachine.Options()
        options.pingInterval = 1_000
        var harness = MachineHarness(options: options)
        harness.now = 900
        _ = harness.feed(MachineHarness.text("hi"))
        #expect(harness.machine.tick(now: 1_500) == nil)
    }
}
