import CZlib
@testable import HearthHTTP
import Testing

/// Raw DEFLATE through zlib directly, independent of `PerMessageDeflate`, as the reference.
enum RawZlib {
    static func inflate(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard hearth_inflateInit2(&stream, -15) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = input
        var output = [UInt8](repeating: 0, count: 1 << 22)
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return CZlib.inflate(&stream, Z_SYNC_FLUSH)
            }
        }
        guard status == Z_OK || status == Z_STREAM_END, stream.avail_in == 0 else { return nil }
        return Array(output[..<Int(stream.total_out)])
    }

    static func deflate(_ input: [UInt8], windowBits: Int32 = 15) -> [UInt8] {
        var stream = z_stream()
        _ = hearth_deflateInit2(&stream, 6, Z_DEFLATED, -windowBits, 8, Z_DEFAULT_STRATEGY)
        defer { deflateEnd(&stream) }
        var input = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                _ = CZlib.deflate(&stream, Z_SYNC_FLUSH)
            }
        }
        return Array(output[..<(Int(stream.total_out) - 4)])
    }
}

@Suite struct PerMessageDeflateTests {
    private static let sample = Array(String(repeating: "{\"type\":\"next\",\"id\":\"1\",\"payload\":{\"data\":{\"n\":42}}}", count: 40).utf8)

    @Test func compressesMessagesThatZlibInflatesBack() throws {
        let deflater = try #require(PerMessageDeflate.Deflater(windowBits: 15, memoryLevel: 8, level: 6, resetsAfterMessage: true))
        for _ in 0..<3 {
            let compressed = try #require(deflater.compress(Self.sample))
            #expect(compressed.count < Self.sample.count / 4)
            #expect(Array(compressed.suffix(4)) != PerMessageDeflate.tail)
            #expect(RawZlib.inflate(compressed + PerMessageDeflate.tail) == Self.sample)
        }
    }

    @Test func inflatesWhatZlibCompressedAtAnyWindowSize() throws {
        let inflater = try #require(PerMessageDeflate.Inflater(resetsAfterMessage: true))
        for windowBits: Int32 in [9, 12, 15] {
            #expect(inflater.inflate(RawZlib.deflate(Self.sample, windowBits: windowBits), limit: 1 << 20) == .inflated(Self.sample))
        }
    }

    @Test func keepsContextAcrossMessagesWhenTakeoverIsOn() throws {
        let deflater = try #require(PerMessageDeflate.Deflater(windowBits: 15, memoryLevel: 8, level: 6, resetsAfterMessage: false))
        let inflater = try #require(PerMessageDeflate.Inflater(resetsAfterMessage: false))
        let first = try #require(deflater.compress(Self.sample))
        let second = try #require(deflater.compress(Self.sample))
        // The second message refers back into the first one's window.
        #expect(second.count < first.count)
        #expect(inflater.inflate(first, limit: 1 << 20) == .inflated(Self.sample))
        #expect(inflater.inflate(second, limit: 1 << 20) == .inflated(Self.sample))
    }

    @Test func stopsADecompressionBombAtTheLimit() throws {
        let inflater = try #require(PerMessageDeflate.Inflater(resetsAfterMessage: true))
        let bomb = RawZlib.deflate(Array(repeating: 0, count: 4 << 20))
        #expect(bomb.count < 8 * 1024)
        #expect(inflater.inflate(bomb, limit: 1 << 20) == .tooLarge)
        let exact = RawZlib.deflate(Array(repeating: 7, count: 1000))
        #expect(inflater.inflate(exact, limit: 1000) == .inflated(Array(repeating: 7, count: 1000)))
        #expect(inflater.inflate(exact, limit: 999) == .tooLarge)
    }

    @Test func reportsCorruptData() throws {
        let inflater = try #require(PerMessageDeflate.Inflater(resetsAfterMessage: true))
        #expect(inflater.inflate([0xFF, 0xFF, 0xFF], limit: 1 << 20) == .corrupt)
    }

    @Test func theStateMachineInflatesRSV1MessagesAndBoundsThem() throws {
        let inflater = try #require(PerMessageDeflate.Inflater(resetsAfterMessage: true))
        var options = WebSocketStateMachine.Options()
        options.maxMessageSize = 1 << 16
        var harness = MachineHarness(options: options, inflater: inflater)
        let compressed = RawZlib.deflate(Self.sample)
        let fragmented = MachineHarness.frame(.text, Array(compressed.prefix(5)), fin: false, rsv1: true)
            + MachineHarness.frame(.ping, [])
            + MachineHarness.frame(.continuation, Array(compressed.dropFirst(5)))
        #expect(harness.feed(fragmented) == [.replyPong([]), .message(WebSocketMessage(kind: .text, payload: Self.sample))])
        let bomb = MachineHarness.frame(.binary, RawZlib.deflate(Array(repeating: 0, count: 1 << 17)), rsv1: true)
        #expect(harness.feed(bomb).first?.failureCode == .messageTooBig)
    }

    @Test func theStateMachineRejectsRSV1OnContinuationAndControlFrames() throws {
        let inflater = try #require(PerMessageDeflate.Inflater(resetsAfterMessage: true))
        var continuation = MachineHarness(inflater: inflater)
        let frames = MachineHarness.frame(.text, [0x61], fin: false) + MachineHarness.frame(.continuation, [0x62], rsv1: true)
        #expect(continuation.feed(frames).first?.failureCode == .protocolError)
        var control = MachineHarness(inflater: inflater)
        #expect(control.feed(MachineHarness.frame(.ping, [], rsv1: true)).first?.failureCode == .protocolError)
    }

    @Test func anEncodedFrameCarriesAPrecompressedVariantAboveTheThreshold() throws {
        var compression = WebSocketConfiguration.Compression()
        compression.serverMaxWindowBits = 12
        let large = WebSocketEncodedFrame.text(utf8: Self.sample, compression: compression)
        let deflated = try #require(large.deflated)
        #expect(deflated[0] == 0xC1)
        #expect(large.deflatedWindowBits == 12)
        let small = WebSocketEncodedFrame.text("tiny", compression: compression)
        #expect(small.deflated == nil)
        #expect(small.plain == [0x81, 4] + Array("tiny".utf8))
    }
}
