import Synchronization

/// The encodings of a body a handler sends again and again, unchanged (an answer it keeps):
/// attached to each such response (``HTTPResponse/reusableEncodings``), it makes the server
/// gzip the body once, for the first client that accepts gzip, and send those bytes to the
/// next ones instead of compressing the same text for each.
///
/// The handler promises that every response it attaches one object to has the same body; a
/// different compression level (the server's setting) compresses again.
public final class ReusableEncodings: Sendable {
    /// The gzip encoding made, and the level it was made at.
    private let gzipped = Mutex<(level: Int32, bytes: [UInt8])?>(nil)

    /// No encoding made yet.
    public init() {}

    /// `body` gzip-encoded at `level`: made the first time, the same bytes after. `nil` when
    /// zlib failed (the body is then sent as it is, and the next response tries again).
    func gzip(_ body: [UInt8], level: Int32) -> [UInt8]? {
        if let kept = gzipped.withLock({ $0 }), kept.level == level { return kept.bytes }
        guard let bytes = Gzip.compress(body, level: level) else { return nil }
        gzipped.withLock { $0 = (level, bytes) }
        return bytes
    }
}
