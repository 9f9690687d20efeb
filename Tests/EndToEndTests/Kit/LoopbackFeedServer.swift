import Foundation
import TestPython

/// A calendar feed server on 127.0.0.1 behind TLS (a certificate for `127.0.0.1` and `localhost`
/// from a certificate authority generated for the run, trustme), written in Python's `http.server`.
/// It serves the files of a directory the test writes, and reports every request it answers, with
/// its conditions, as one ``Request``.
///
/// Paths: `/feeds/<name>` answers `<name>.ics` with an `ETag` (a hash of the file) and a fixed
/// `Last-Modified`, or 304 when `If-None-Match` names the current `ETag`; when `<name>.status` holds a
/// status code it answers that, with no body (and `<name>.location` as its `Location` when there is
/// one), and 404 when there is no such file. `/redirect/<n>/<name>` redirects `n` times before
/// reaching `/feeds/<name>`; `/redirect-to?<url>` redirects to `<url>`; `/slow/<name>` never answers (it waits for the client to close),
/// and reports status 0 once it has (-2 when it waited 30 s in vain).
final class LoopbackFeedServer {
    /// One request the server answered.
    struct Request: Equatable {
        let path: String
        let status: Int
        let ifNoneMatch: String?
        let ifModifiedSince: String?
    }

    private let peer: PythonPeer
    /// The listening port.
    let port: Int
    /// The directory the feeds are served from.
    let directory: String
    /// The PEM file of the authority that signed the server's certificate (`--outbound-ca-file`).
    var authorityFile: String { directory + "/ca.pem" }
    /// The `Last-Modified` every feed is served with.
    static let lastModified = "Mon, 02 Mar 2026 08:00:00 GMT"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        peer = try PythonPeer(script: Self.script, arguments: [directory, Self.lastModified])
        port = try peer.readJSON()["port"] as? Int ?? 0
    }

    /// The https URL of `path` on the server.
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Serves `text` (lines joined with CRLF) as the feed `name`.
    func serve(_ name: String, lines: [String]) throws {
        try serve(name, bytes: Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
    }

    /// Serves `bytes` as the feed `name`.
    func serve(_ name: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/\(name).ics"))
    }

    /// Makes the feed `name` answer `status` (nil: its file again), with `location` as its `Location` (a redirect).
    func answer(_ name: String, status: Int?, location: String? = nil) throws {
        let path = directory + "/\(name).status"
        if let status { try String(status).write(toFile: path, atomically: true, encoding: .utf8) } else { try? FileManager.default.removeItem(atPath: path) }
        let locationPath = directory + "/\(name).location"
        if let location { try location.write(toFile: locationPath, atomically: true, encoding: .utf8) } else { try? FileManager.default.removeItem(atPath: locationPath) }
    }

    /// The next request the server answered; waits for it.
    func nextRequest() throws -> Request {
        let line = try peer.readJSON()
        return Request(
            path: line["path"] as? String ?? "", status: line["status"] as? Int ?? 0, ifNoneMatch: line["ifNoneMatch"] as? String,
            ifModifiedSince: line["ifModifiedSince"] as? String)
    }

    func stop() {
        peer.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static let script = #"""
    import hashlib, json, os, ssl, sys, threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import trustme

    directory, last_modified = sys.argv[1], sys.argv[2]
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers: self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            with lock:
                print(json.dumps({"path": self.path, "status": status, "ifNoneMatch": self.headers["If-None-Match"],
                                  "ifModifiedSince": self.headers["If-Modified-Since"]}), flush=True)
        def feed(self, name):
            status_file = os.path.join(directory, name + ".status")
            location_file = os.path.join(directory, name + ".location")
            if os.path.exists(status_file):
                headers = [("Location", open(location_file).read())] if os.path.exists(location_file) else []
                return self.answer(int(open(status_file).read()), headers=headers)
            path = os.path.join(directory, name + ".ics")
            if not os.path.exists(path):
                return self.answer(404)
            body = open(path, "rb").read()
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers["If-None-Match"] == etag:
                return self.answer(304, headers=[("ETag", etag)])
            self.answer(200, body, [("Content-Type", "text/calendar"), ("ETag", etag), ("Last-Modified", last_modified)])
        def do_GET(self):
            # Every request is reported, whatever happens, so a test waiting for its report never hangs.
            try:
                self.route()
            except Exception as error:
                with lock:
                    print(json.dumps({"path": self.path, "status": -1, "error": repr(error)}), flush=True)
        def route(self):
            parts = self.path.split("/")
            if self.path.startswith("/feeds/"):
                self.feed(parts[2])
            elif self.path.startswith("/redirect/"):
                left = int(parts[2])
                target = "/feeds/" + parts[3] if left <= 1 else "/redirect/%d/%s" % (left - 1, parts[3])
                self.answer(302, headers=[("Location", target)])
            elif self.path.startswith("/redirect-to?"):
                self.answer(302, headers=[("Location", self.path.split("?", 1)[1])])
            elif self.path.startswith("/slow/"):
                # No answer until the server under test gives up and closes the connection (its
                # --calendar-feed-timeout): the close is what this waits for (at most 30 s, so a
                # server that never gives up fails the test instead of hanging it).
                self.connection.settimeout(30)
                try:
                    gave_up = self.connection.recv(1) == b""
                except (ConnectionResetError, ssl.SSLError):
                    gave_up = True
                except TimeoutError:
                    gave_up = False
                with lock:
                    print(json.dumps({"path": self.path, "status": 0 if gave_up else -2}), flush=True)
            else:
                self.answer(404)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    authority = trustme.CA()
    authority.issue_cert("localhost", "127.0.0.1").configure_cert(context := ssl.create_default_context(ssl.Purpose.CLIENT_AUTH))
    authority.cert_pem.write_to_path(directory + "/ca.pem")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    server.serve_forever()
    """#
}
