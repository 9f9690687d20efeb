import CSystem
import Glibc

/// An outbound TCP connection on a non-blocking socket, every wait bounded by a deadline.
///
/// ```swift
/// let connection = try TCPConnection.connect(host: "smtp.example.com", port: 587, deadline: .after(.seconds(30)))
/// try connection.send(Array("EHLO me\r\n".utf8), deadline: .after(.seconds(30)))
/// ```
public final class TCPConnection: Connection {
    /// The peer as `host:port` (IPv6 literals bracketed).
    public let peer: String
    /// The socket; -1 once closed.
    private(set) var descriptor: Int32

    private init(descriptor: Int32, peer: String) {
        self.descriptor = descriptor
        self.peer = peer
    }

    deinit { close() }

    /// Resolves `host` (a name, an IPv4 or an IPv6 address) and connects to the first of its
    /// addresses that accepts, IPv4 and IPv6 alike, in the resolver's order.
    /// - Throws: `NetworkError` `.cannotResolve`, `.cannotConnect` (with the last address's
    ///   reason), or `.timedOut` when `deadline` passes.
    public static func connect(host: String, port: Int, deadline: Deadline) throws(NetworkError) -> TCPConnection {
        try connect(to: try ResolvedAddress.resolve(host: host, port: port), deadline: deadline)
    }

    /// Connects to the first of `addresses` that accepts, in their order, without resolving
    /// anything again (so a connection goes exactly where a check of the addresses allowed).
    /// - Throws: `NetworkError` `.cannotConnect` (with the last address's reason), or
    ///   `.timedOut` when `deadline` passes.
    public static func connect(to addresses: [ResolvedAddress], deadline: Deadline) throws(NetworkError) -> TCPConnection {
        let peer = addresses.first?.peer ?? "nowhere"
        var lastError = NetworkError(code: .cannotConnect, peer: peer, detail: "no address")
        for address in addresses {
            do {
                let descriptor = try open(address, deadline: deadline)
                return TCPConnection(descriptor: descriptor, peer: address.peer)
            } catch where error.code == .cannotConnect {
                lastError = error
            }
        }
        throw lastError
    }

    /// One non-blocking connect attempt to `address`.
    private static func open(_ address: ResolvedAddress, deadline: Deadline) throws(NetworkError) -> Int32 {
        let peer = address.peer
        let descriptor = csystem_stream_socket(address.family)
        guard descriptor >= 0 else {
            throw NetworkError(code: .cannotConnect, peer: peer, detail: SystemCall.reason(csystem_errno()))
        }
        var keep = false
        defer { if !keep { Glibc.close(descriptor) } }
        let status = address.socketAddress.withUnsafeBytes { bytes in
            Glibc.connect(descriptor, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        if status != 0 {
            let code = csystem_errno()
            guard code == EINPROGRESS || code == EINTR else {
                throw NetworkError(code: .cannotConnect, peer: peer, detail: SystemCall.reason(code))
            }
            try SystemCall.wait(descriptor, for: Int16(POLLOUT), until: deadline, peer: peer)
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length)
            guard socketError == 0 else {
                throw NetworkError(code: .cannotConnect, peer: peer, detail: SystemCall.reason(socketError))
            }
        }
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        keep = true
        return descriptor
    }

    public func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(NetworkError) -> Int {
        while true {
            guard descriptor >= 0 else { throw closedError }
            switch SystemCall.run({ recv(descriptor, buffer.baseAddress, buffer.count, 0) }) {
            case .done(let count): return count
            case .wouldBlock: try SystemCall.wait(descriptor, for: Int16(POLLIN), until: deadline, peer: peer)
            case .failed(let code): throw NetworkError(code: .connectionClosed, peer: peer, detail: SystemCall.reason(code))
            }
        }
    }

    public func send(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(NetworkError) {
        var offset = 0
        while offset < bytes.count {
            guard descriptor >= 0 else { throw closedError }
            switch SystemCall.run({ csystem_send(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }) {
            case .done(let count): offset += count
            case .wouldBlock: try SystemCall.wait(descriptor, for: Int16(POLLOUT), until: deadline, peer: peer)
            case .failed(let code): throw NetworkError(code: .connectionClosed, peer: peer, detail: SystemCall.reason(code))
            }
        }
    }

    /// Waits until the socket is readable (or writable) for a TLS engine driving it.
    func wait(for events: Int16, until deadline: Deadline) throws(NetworkError) {
        guard descriptor >= 0 else { throw closedError }
        try SystemCall.wait(descriptor, for: events, until: deadline, peer: peer)
    }

    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private var closedError: NetworkError {
        NetworkError(code: .connectionClosed, peer: peer, detail: "the connection was closed")
    }
}
