import COpenSSL
import Glibc

/// A TLS session over a ``TCPConnection``, made by ``TLSClient``. OpenSSL drives the
/// non-blocking socket; whenever it needs to wait, the connection polls until the deadline.
public final class TLSConnection: Connection {
    /// The peer as `host:port`.
    public var peer: String { tcp.peer }
    private let tcp: TCPConnection
    private var ssl: OpaquePointer?

    init(_ tcp: TCPConnection, ssl: OpaquePointer) {
        self.tcp = tcp
        self.ssl = ssl
    }

    deinit { close() }

    /// The negotiated protocol, e.g. `TLSv1.3`.
    public var protocolVersion: String {
        guard let ssl else { return "" }
        return String(cString: SSL_get_version(ssl))
    }

    func handshake(deadline: Deadline) throws(NetworkError) {
        _ = try perform(deadline: deadline) { ssl in SSL_connect(ssl) }
    }

    public func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(NetworkError) -> Int {
        try perform(deadline: deadline) { ssl in SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count)) }
    }

    public func send(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(NetworkError) {
        guard bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            offset += try perform(deadline: deadline) { ssl in
                SSL_write(ssl, bytes.baseAddress! + offset, Int32(clamping: bytes.count - offset))
            }
        }
    }

    public func close() {
        if let ssl {
            // Sends close_notify when the session is up; the answer is not awaited.
            if SSL_is_init_finished(ssl) == 1 { SSL_shutdown(ssl) }
            SSL_free(ssl)
            self.ssl = nil
        }
        tcp.close()
        ERR_clear_error()
    }

    /// Runs an OpenSSL I/O call until it makes progress, waiting on the socket as OpenSSL
    /// asks. Returns the call's positive result, or 0 when the peer closed the session cleanly.
    private func perform(deadline: Deadline, _ call: (OpaquePointer) -> Int32) throws(NetworkError) -> Int {
        while true {
            guard let ssl else { throw NetworkError(code: .connectionClosed, peer: peer, detail: "the connection was closed") }
            ERR_clear_error()
            let result = call(ssl)
            if result > 0 { return Int(result) }
            let errorCode = SSL_get_error(ssl, result)
            switch errorCode {
            case SSL_ERROR_WANT_READ: try tcp.wait(for: Int16(POLLIN), until: deadline)
            case SSL_ERROR_WANT_WRITE: try tcp.wait(for: Int16(POLLOUT), until: deadline)
            case SSL_ERROR_ZERO_RETURN: return 0
            default: throw failure(errorCode, ssl: ssl)
            }
        }
    }

    private func failure(_ errorCode: Int32, ssl: OpaquePointer) -> NetworkError {
        let verification = SSL_get_verify_result(ssl)
        if verification != X509_V_OK {
            return NetworkError(
                code: .certificateRejected, peer: peer, detail: String(cString: X509_verify_cert_error_string(verification)))
        }
        if errorCode == SSL_ERROR_SYSCALL {
            let code = errno
            ERR_clear_error()
            return NetworkError(code: .connectionClosed, peer: peer, detail: code == 0 ? "unexpected end of stream" : SystemCall.reason(code))
        }
        return NetworkError(code: .tlsFailed, peer: peer, detail: TLSClient.openSSLErrors())
    }
}
