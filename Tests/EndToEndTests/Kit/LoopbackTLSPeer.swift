import Foundation

/// What the Python stand-ins of outside HTTPS services (a Web Push service, FCM) share: a
/// temporary directory for their files, and the Python that serves a handler on 127.0.0.1 behind
/// TLS with a certificate from an authority made for the run (trustme), whose PEM it writes to
/// `<directory>/ca.pem` (for `--outbound-ca-file`).
enum LoopbackTLSPeer {
    /// A new temporary directory named after `prefix`.
    static func directory(_ prefix: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Removes a directory made by ``directory(_:)`` with its files, once its peer has stopped.
    static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Python defining `serve_tls(handler, directory, ready)`: listens, writes the authority,
    /// calls `ready(server)` (which prints the ready line), then serves until stopped.
    static let python = #"""
    import ssl, trustme
    from http.server import ThreadingHTTPServer

    def serve_tls(handler, directory, ready):
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        authority = trustme.CA()
        authority.issue_cert("localhost", "127.0.0.1").configure_cert(context := ssl.create_default_context(ssl.Purpose.CLIENT_AUTH))
        authority.cert_pem.write_to_path(directory + "/ca.pem")
        server.socket = context.wrap_socket(server.socket, server_side=True)
        ready(server)
        server.serve_forever()

    """#
}
