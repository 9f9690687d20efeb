/// Reads lines and byte runs from a ``Connection`` through a buffer, so line-based
/// protocols (SMTP replies, HTTP heads) do not make one system call per byte.
///
/// The reader does not own the connection's lifetime. Before switching the connection to
/// TLS, check ``bufferedCount`` is 0: buffered plaintext must never be read as if it had
/// arrived over TLS.
public struct BufferedReader {
    /// The connection read from.
    public let connection: any Connection
    private var buffer: [UInt8] = []
    private var start = 0
    private let chunkSize: Int

    /// A reader of `connection` receiving up to `chunkSize` bytes per system call.
    public init(_ connection: any Connection, chunkSize: Int = 16 * 1024) {
        precondition(chunkSize > 0, "the chunk size must be positive")
        self.connection = connection
        self.chunkSize = chunkSize
    }

    /// Bytes received but not yet returned.
    public var bufferedCount: Int { buffer.count - start }

    /// Drops whatever was buffered (after a TLS upgrade the reader must start empty).
    public mutating func discardBuffered() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
    }

    /// The next line, without its line ending (CRLF, or a bare LF from a lenient peer).
    /// - Returns: the line; nil when the peer closed the connection before sending any byte of it.
    /// - Throws: `NetworkError` `.responseTooLarge` when a line exceeds `maxLength` bytes,
    ///   `.connectionClosed` when the stream ends inside a line, or what the connection throws.
    public mutating func readLine(maxLength: Int, deadline: Deadline) throws(NetworkError) -> [UInt8]? {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: 10) {
                var end = newline
                if end > start && buffer[end - 1] == 13 { end -= 1 }
                guard end - start <= maxLength else { throw tooLong(maxLength) }
                let line = Array(buffer[start..<end])
                start = newline + 1
                compact()
                return line
            }
            guard bufferedCount <= maxLength + 1 else { throw tooLong(maxLength) }
            searchFrom = buffer.count
            guard try fill(deadline: deadline) else {
                if bufferedCount == 0 { return nil }
                throw NetworkError(code: .connectionClosed, peer: connection.peer, detail: "the stream ended inside a line")
            }
        }
    }

    /// Up to `maxCount` bytes: what is buffered, or else what one receive returns.
    /// - Returns: the bytes; empty when the peer closed the connection.
    public mutating func read(maxCount: Int, deadline: Deadline) throws(NetworkError) -> [UInt8] {
        if bufferedCount == 0, !(try fill(deadline: deadline)) { return [] }
        let end = start + min(maxCount, bufferedCount)
        let bytes = Array(buffer[start..<end])
        start = end
        compact()
        return bytes
    }

    /// Receives once and appends; false when the peer closed the connection.
    private mutating func fill(deadline: Deadline) throws(NetworkError) -> Bool {
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        let outcome = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(NetworkError) in
                try connection.receive(into: UnsafeMutableRawBufferPointer(rebasing: bytes[oldCount...]), deadline: deadline)
            }
        }
        let received = (try? outcome.get()) ?? 0
        buffer.removeLast(chunkSize - received)
        return try outcome.get() > 0
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    private func tooLong(_ maxLength: Int) -> NetworkError {
        NetworkError(code: .responseTooLarge, peer: connection.peer, detail: "a line is longer than \(maxLength) bytes")
    }
}
