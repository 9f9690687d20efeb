/// A blocking, deadline-bounded byte stream to one peer: plain TCP (``TCPConnection``) or
/// TLS over it (``TLSConnection``). Meant for worker threads, never for event loops.
///
/// A connection is used by one thread at a time; it is a class because it owns a descriptor
/// (closed on ``close()`` or when the last reference goes).
public protocol Connection: AnyObject {
    /// The peer as `host:port`, for messages.
    var peer: String { get }

    /// Receives at most `buffer.count` bytes into `buffer`, waiting until some arrive.
    /// - Returns: how many bytes were received; 0 when the peer closed its side.
    /// - Throws: `NetworkError` `.timedOut` when nothing arrives before `deadline`, or
    ///   `.connectionClosed`/`.tlsFailed` when the connection breaks.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(NetworkError) -> Int

    /// Sends all of `bytes`, waiting while the socket's send buffer is full.
    /// - Throws: `NetworkError` `.timedOut` when the deadline passes first, or
    ///   `.connectionClosed`/`.tlsFailed` when the connection breaks.
    func send(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(NetworkError)

    /// Closes the connection (a TLS connection sends its close_notify first, without waiting).
    /// Further use fails with `.connectionClosed`; closing twice does nothing.
    func close()
}

extension Connection {
    /// Sends all of `bytes`.
    /// - Throws: as ``send(_:deadline:)-(UnsafeRawBufferPointer,_)``.
    public func send(_ bytes: [UInt8], deadline: Deadline) throws(NetworkError) {
        // `withUnsafeBytes` rethrows untyped errors; a Result carries the typed one out.
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(NetworkError) in try send(buffer, deadline: deadline) }
        }.get()
    }
}
