import Testing
@testable import HearthHTTP

/// `ReusableBody`: the encoding is made once per level and handed out again; only the body's own
/// storage counts as the body.
struct ReusableBodyTests {
    static func storage(_ bytes: [UInt8]?) -> UnsafeRawPointer? {
        bytes?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func theEncodingIsMadeOncePerLevel() throws {
        let body = ReusableBody(Array(String(repeating: "once ", count: 500).utf8))
        let first = try #require(body.gzip(level: 6))
        let again = try #require(body.gzip(level: 6))
        #expect(Self.storage(first) == Self.storage(again), "the same encoding, not a new one")
        #expect(try Gunzip.decompress(first) == body.bytes)
        let faster = try #require(body.gzip(level: 1))
        #expect(Self.storage(faster) != Self.storage(first))
        #expect(try Gunzip.decompress(faster) == body.bytes)
    }

    @Test func onlyTheBodysOwnStorageIsTheBody() {
        let body = ReusableBody(Array("kept".utf8))
        let shared = body.bytes
        var changed = body.bytes
        changed[0] = UInt8(ascii: "K")
        #expect(body.isBody(shared))
        #expect(!body.isBody(changed))
        #expect(!body.isBody(Array("kept".utf8)), "equal bytes elsewhere are not known to stay equal")
    }
}
