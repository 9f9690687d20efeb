import COpenSSL
import Glibc

/// Opens TLS client connections through OpenSSL 3: TLS 1.2 or newer, the server's
/// certificate chain verified against the configured trust store and its name (or IP
/// address) checked against the host that was asked for, SNI sent for host names.
///
/// One client holds one OpenSSL context; create it once and share it between threads.
///
/// ```swift
/// let tls = try TLSClient()                                       // the system's CA store
/// let connection = try tls.connect(host: "smtp.example.com", port: 465, deadline: .after(.seconds(30)))
/// // STARTTLS: upgrade a plain connection after the protocol agreed to it.
/// let secured = try tls.secure(plain, serverName: "smtp.example.com", deadline: .after(.seconds(30)))
/// ```
// @unchecked Sendable: the SSL_CTX is configured completely in `init` and never changed
// afterwards; OpenSSL documents creating SSL objects from a shared, unchanging context on
// several threads as safe (the context is reference counted with atomic operations).
public final class TLSClient: @unchecked Sendable {
    /// The settings the client was created with.
    public let configuration: TLSConfiguration
    private let context: OpaquePointer

    /// Creates a client.
    /// - Throws: `NetworkError` `.invalidConfiguration` when OpenSSL cannot create the
    ///   context or the trust store (for example an unreadable or invalid CA file).
    public init(configuration: TLSConfiguration = TLSConfiguration()) throws(NetworkError) {
        self.configuration = configuration
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw NetworkError(code: .invalidConfiguration, peer: "context", detail: TLSClient.openSSLErrors())
        }
        self.context = context
        let version = configuration.minimumVersion == .tls12 ? TLS1_2_VERSION : TLS1_3_VERSION
        _ = hearth_ssl_ctx_set_min_proto_version(context, version)
        // Swift arrays may move between a write that wanted to wait and its retry.
        _ = hearth_ssl_ctx_set_mode(context, Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let loaded = if let file = configuration.certificateAuthorityFile {
            SSL_CTX_load_verify_locations(context, file, nil)
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        guard loaded == 1 else {
            let detail = TLSClient.openSSLErrors()
            SSL_CTX_free(context)
            throw NetworkError(
                code: .invalidConfiguration, peer: configuration.certificateAuthorityFile ?? "system CA store", detail: detail)
        }
    }

    deinit { SSL_CTX_free(context) }

    /// Connects to `host:port` over TCP and performs the TLS handshake (implicit TLS, such as
    /// HTTPS or SMTP submission on port 465).
    /// - Throws: `NetworkError` from connecting, `.certificateRejected` when verification
    ///   fails, `.tlsFailed` for other handshake failures, `.timedOut` at `deadline`.
    public func connect(host: String, port: Int, deadline: Deadline) throws(NetworkError) -> TLSConnection {
        let connection = try TCPConnection.connect(host: host, port: port, deadline: deadline)
        return try secure(connection, serverName: host, deadline: deadline)
    }

    /// Performs the TLS handshake on an already connected socket (STARTTLS), verifying that
    /// the certificate names `serverName`. The returned connection owns `connection`.
    ///
    /// The caller must not have buffered bytes the server sent before the handshake: they
    /// would be plaintext an attacker could have injected (CVE-2011-0411).
    /// - Throws: as ``connect(host:port:deadline:)``; `connection` is closed on failure.
    public func secure(_ connection: TCPConnection, serverName: String, deadline: Deadline) throws(NetworkError) -> TLSConnection {
        ERR_clear_error()
        guard let ssl = SSL_new(context) else {
            connection.close()
            throw NetworkError(code: .tlsFailed, peer: connection.peer, detail: TLSClient.openSSLErrors())
        }
        let secured = TLSConnection(connection, ssl: ssl)
        do throws(NetworkError) {
            try Self.expect(serverName, on: ssl, peer: connection.peer)
            guard SSL_set_fd(ssl, connection.descriptor) == 1 else {
                throw NetworkError(code: .tlsFailed, peer: connection.peer, detail: TLSClient.openSSLErrors())
            }
            try secured.handshake(deadline: deadline)
        } catch {
            secured.close()
            throw error
        }
        return secured
    }

    /// Tells OpenSSL which name or address the certificate must carry, and sets SNI for names.
    private static func expect(_ serverName: String, on ssl: OpaquePointer, peer: String) throws(NetworkError) {
        let name = serverName.hasPrefix("[") && serverName.hasSuffix("]") ? String(serverName.dropFirst().dropLast()) : serverName
        let ok: Bool
        if isIPAddress(name) {
            // RFC 6066 forbids IP literals in SNI; the certificate must list the address.
            ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1
        } else {
            ok = SSL_set1_host(ssl, name) == 1 && hearth_ssl_set_server_name(ssl, name) == 1
        }
        guard ok else {
            throw NetworkError(code: .tlsFailed, peer: peer, detail: "cannot verify the name '\(name)': \(openSSLErrors())")
        }
    }

    private static func isIPAddress(_ text: String) -> Bool {
        var storage = in6_addr()
        return inet_pton(AF_INET, text, &storage) == 1 || inet_pton(AF_INET6, text, &storage) == 1
    }

    /// The thread's OpenSSL error queue as text (and empties it).
    static func openSSLErrors() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            var text = [UInt8](repeating: 0, count: 256)
            text.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            }
            reasons.append(String(decoding: text.prefix { $0 != 0 }, as: UTF8.self))
        }
        return reasons.isEmpty ? "unknown OpenSSL error" : reasons.joined(separator: "; ")
    }
}
