import Synchronization

/// A response body a handler sends again and again, unchanged (an answer it keeps), with its
/// gzip encoding made once: the first time a client that accepts gzip is sent it, reused for
/// the next ones instead of compressing the same text for each. A response made with one
/// (``HTTPResponse/init(status:headers:reusableBody:)``) shares its bytes, not a copy.
public final class ReusableBody: Sendable {
    /// The body.
    public let bytes: [UInt8]
    /// The gzip encoding made, and the level it was made at.
    private let gzipped = Mutex<(level: Int32, bytes: [UInt8])?>(nil)

    /// The body `bytes`, no encoding made yet.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The body gzip-encoded at `level`: made the first time, the same bytes after (another
    /// level makes it again). `nil` when zlib failed (the body is then sent as it is, and the
    /// next response tries again).
    func gzip(level: Int32) -> [UInt8]? {
        if let kept = gzipped.withLock({ $0 }), kept.level == level { return kept.bytes }
        guard let encoded = Gzip.compress(bytes, level: level) else { return nil }
        gzipped.withLock { $0 = (level, encoded) }
        return encoded
    }

    /// Whether `body` is still these bytes (the same storage: a response's body replaced or
    /// changed after it was made from this one is not).
    func isBody(_ body: [UInt8]) -> Bool {
        body.count == bytes.count && body.withUnsafeBufferPointer { body in
            bytes.withUnsafeBufferPointer { $0.baseAddress == body.baseAddress }
        }
    }
}
