import Foundation
import Net
import TestPython

/// Python's `http.server` on 127.0.0.1, plain or behind TLS with a certificate for
/// `localhost` and `127.0.0.1` from a certificate authority generated for the run (trustme).
///
/// Routes: `/length` (Content-Length body), `/chunked` (chunked body), `/big` (1 MiB),
/// `/redirect` (302 with a Location), `/cached` (a `Cache-Control` header), `POST /echo`
/// (the request body and headers back as JSON).
final class LoopbackHTTPServer {
    private let peer: PythonPeer
    /// The listening port.
    let port: Int
    /// A PEM file with the generated CA that signed the server's certificate (TLS only).
    let authorityFile: String
    /// A PEM file with another CA, which signed nothing the server presents.
    let unrelatedAuthorityFile: String

    /// Where its files are (removed by ``stop()``).
    private let directory: String

    init(tls: Bool) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("net-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        peer = try PythonPeer(script: Self.script, arguments: [tls ? "tls" : "plain", directory])
        let ready = try peer.readJSON()
        port = ready["port"] as? Int ?? 0
        authorityFile = directory + "/ca.pem"
        unrelatedAuthorityFile = directory + "/other-ca.pem"
    }

    func url(_ path: String, host: String = "127.0.0.1", secure: Bool = false) throws -> HTTPURL {
        try HTTPURL("\(secure ? "https" : "http")://\(host):\(port)\(path)")
    }

    func stop() {
        peer.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static let script = #"""
    import json, ssl, sys
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    mode, directory = sys.argv[1], sys.argv[2]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def send_body(self, status, body, headers=()):
            self.send_response(status)
            for name, value in headers: self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def do_GET(self):
            if self.path == "/length":
                self.send_body(200, b"hello, length", [("Content-Type", "text/plain")])
            elif self.path == "/chunked":
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for piece in (b"hello", b", ", b"chunks"):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.write(b"0\r\n\r\n")
            elif self.path == "/big":
                self.send_body(200, b"x" * (1 << 20))
            elif self.path == "/redirect":
                self.send_body(302, b"", [("Location", "/length")])
            elif self.path == "/cached":
                self.send_body(200, b"{}", [("Cache-Control", "public, max-age=21600"), ("Content-Type", "application/json")])
            else:
                self.send_body(404, b"not found")
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            answer = {"body": body.decode(), "contentType": self.headers["Content-Type"], "host": self.headers["Host"]}
            self.send_body(200, json.dumps(answer).encode(), [("Content-Type", "application/json")])

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if mode == "tls":
        import trustme
        authority = trustme.CA()
        authority.issue_cert("localhost", "127.0.0.1").configure_cert(context := ssl.create_default_context(ssl.Purpose.CLIENT_AUTH))
        authority.cert_pem.write_to_path(directory + "/ca.pem")
        trustme.CA().cert_pem.write_to_path(directory + "/other-ca.pem")
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    server.serve_forever()
    """#
}
