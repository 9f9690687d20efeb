import Foundation
import TestPython

/// A stand-in for Google's OAuth 2.0 token endpoint and FCM's HTTP v1 send endpoint on 127.0.0.1
/// behind TLS (trustme), written in Python. It makes a service account (an RSA key with
/// `cryptography`) and writes its key file as the Firebase console does; the token endpoint
/// verifies each assertion's RS256 signature with the account's public key (`cryptography`) and
/// its claims, and answers an access token; the send endpoint checks the bearer token is one it
/// issued and records the message.
///
/// The registration token decides the send endpoint's answer: `unregistered-…` 404 with FCM's
/// `UNREGISTERED` error, `later-…` 429 with `Retry-After: 120` on its first message and 200 after,
/// `stale-…` 401 (as for a revoked access token) on its first message and 200 after, anything else 200. Every request is reported as one ``Event``.
final class LoopbackFCMService {
    /// What the stand-in received.
    struct Event {
        /// `token` or `send`.
        let kind: String
        let status: Int
        /// Token endpoint: whether the assertion's signature verified, and its header and claims.
        let assertionValid: Bool
        let claims: [String: Any]
        let header: [String: Any]
        let grantType: String?
        /// Send endpoint: whether the bearer token was one the endpoint issued, and the message.
        let authorized: Bool
        let message: [String: Any]
    }

    /// The Firebase project of the service account.
    static let projectID = "hearth-test"

    private let peer: PythonPeer
    let port: Int
    /// The PEM file of the authority that signed the stand-in's certificate (`--outbound-ca-file`).
    let authorityFile: String
    /// The service account key file (`--fcm-service-account`).
    let serviceAccountFile: String

    /// Where its files are (removed by ``stop()``).
    private let directory: String

    init() throws {
        directory = try LoopbackTLSPeer.directory("fcm")
        peer = try PythonPeer(script: LoopbackTLSPeer.python + Self.script, arguments: [directory, Self.projectID])
        port = try peer.readJSON()["port"] as? Int ?? 0
        authorityFile = directory + "/ca.pem"
        serviceAccountFile = directory + "/service-account.json"
    }

    /// The token endpoint's URL.
    var tokenEndpoint: String { "https://127.0.0.1:\(port)/token" }
    /// The send endpoint's URL.
    var sendEndpoint: String { "https://127.0.0.1:\(port)/v1/projects/\(Self.projectID)/messages:send" }

    /// The server's arguments sending FCM messages to this stand-in.
    var arguments: [String] {
        ["--fcm-service-account", serviceAccountFile, "--fcm-token-endpoint", tokenEndpoint, "--fcm-send-endpoint", sendEndpoint]
    }

    /// The next request the stand-in received; waits for it.
    func nextEvent() throws -> Event {
        let line = try peer.readJSON()
        return Event(
            kind: line["event"] as? String ?? "", status: line["status"] as? Int ?? 0, assertionValid: line["valid"] as? Bool ?? false,
            claims: line["claims"] as? [String: Any] ?? [:], header: line["header"] as? [String: Any] ?? [:],
            grantType: line["grantType"] as? String, authorized: line["authorized"] as? Bool ?? false,
            message: line["message"] as? [String: Any] ?? [:])
    }

    func stop() {
        peer.stop()
        LoopbackTLSPeer.remove(directory)
    }

    private static let script = #"""
    import base64, json, sys, threading, urllib.parse
    from http.server import BaseHTTPRequestHandler
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    directory, project = sys.argv[1], sys.argv[2]
    def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    issued, seen, lock = set(), set(), threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def answer(self, status, body, headers=()):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers: self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.path == "/token": self.token(body)
            else: self.send(body)
        def token(self, body):
            form = urllib.parse.parse_qs(body.decode())
            assertion = form.get("assertion", [""])[0]
            report = {"event": "token", "grantType": form.get("grant_type", [None])[0], "valid": False}
            try:
                head, claims, signature = assertion.split(".")
                report["header"], report["claims"] = json.loads(unb64(head)), json.loads(unb64(claims))
                key.public_key().verify(unb64(signature), (head + "." + claims).encode(), padding.PKCS1v15(), hashes.SHA256())
                report["valid"] = True
            except (ValueError, InvalidSignature) as error:
                report["error"] = repr(error)
            if report["valid"]:
                with lock:
                    access = "ya29.stand-in-%d" % (len(issued) + 1)
                    issued.add(access)
                report["status"] = 200
                self.answer(200, {"access_token": access, "expires_in": 3600, "token_type": "Bearer"})
            else:
                report["status"] = 400
                self.answer(400, {"error": "invalid_grant"})
            with lock:  # one line at a time: requests are served on several threads
                print(json.dumps(report), flush=True)
        def send(self, body):
            message = json.loads(body).get("message", {})
            token = message.get("token", "")
            bearer = (self.headers["Authorization"] or "").removeprefix("Bearer ")
            with lock:
                authorized = bearer in issued
                first = token not in seen
                seen.add(token)
            report = {"event": "send", "authorized": authorized, "message": message}
            if self.path != "/v1/projects/%s/messages:send" % project or not authorized:
                report["status"] = 401
                self.answer(401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}})
            elif token.startswith("unregistered-"):
                report["status"] = 404
                self.answer(404, {"error": {"code": 404, "status": "NOT_FOUND", "details": [
                    {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}})
            elif token.startswith("stale-") and first:
                report["status"] = 401
                self.answer(401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}})
            elif token.startswith("later-") and first:
                report["status"] = 429
                self.answer(429, {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED"}}, [("Retry-After", "120")])
            else:
                report["status"] = 200
                self.answer(200, {"name": "projects/%s/messages/%d" % (project, len(seen))})
            with lock:
                print(json.dumps(report), flush=True)

    def ready(server):
        with open(directory + "/service-account.json", "w") as file:
            json.dump({"type": "service_account", "project_id": project, "private_key_id": "stand-in-key-1", "private_key": pem,
                       "client_email": "hearth@%s.iam.gserviceaccount.com" % project, "client_id": "1",
                       "token_uri": "https://127.0.0.1:%d/token" % server.server_address[1]}, file)
        print(json.dumps({"port": server.server_address[1]}), flush=True)

    serve_tls(Handler, directory, ready)
    """#
}
