@testable import HearthHTTP
import Testing

/// A subscription shared by many connections sends one frame per operation id, built once: the fan-out of
/// a large result (a 20-member leaderboard to 1,000 devices) spent most of its CPU time compressing the
/// same message again for every connection, whether or not it had negotiated permessage-deflate.
@Suite struct SharedNextFrameTests {
    /// A result above the compression threshold.
    private static let payload = Array(("{\"data\":{\"board\":[" + (1...40).map { "{\"rank\":\($0)}" }.joined(separator: ",") + "]}}").utf8)

    @Test func theConnectionsOfOneOperationIdShareOneFrameEncodedAndCompressedOnce() throws {
        let shared = GraphQLTransportWSMessage.SharedNext(payload: Self.payload)
        let compression = WebSocketConfiguration.Compression()
        let first = shared.frame(id: "1", compression: compression)
        let again = shared.frame(id: "1", compression: compression)
        let firstDeflated = try #require(first.deflated)
        let againDeflated = try #require(again.deflated)
        // The same bytes, not an equal copy: the second connection's frame cost nothing.
        #expect(firstDeflated.withUnsafeBufferPointer { $0.baseAddress } == againDeflated.withUnsafeBufferPointer { $0.baseAddress })
        #expect(first.plain.withUnsafeBufferPointer { $0.baseAddress } == again.plain.withUnsafeBufferPointer { $0.baseAddress })
        let expected = WebSocketEncodedFrame.text(utf8: GraphQLTransportWSMessage.next(id: "1", payload: Self.payload).encoded(), compression: compression)
        #expect(first.plain == expected.plain && firstDeflated == expected.deflated)
    }

    @Test func eachOperationIdAndAnEndpointWithoutCompressionGetFramesOfTheirOwn() throws {
        let shared = GraphQLTransportWSMessage.SharedNext(payload: Self.payload)
        let other = shared.frame(id: "board", compression: WebSocketConfiguration.Compression())
        #expect(other.plain == WebSocketEncodedFrame.text(utf8: GraphQLTransportWSMessage.next(id: "board", payload: Self.payload).encoded()).plain)
        #expect(other.deflated != nil)
        let plain = shared.frame(id: "board", compression: nil)
        #expect(plain.deflated == nil && plain.plain == other.plain)
    }
}
