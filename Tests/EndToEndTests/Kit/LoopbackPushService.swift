import Foundation
import TestPython

/// A Web Push service on 127.0.0.1 behind TLS (a certificate for `127.0.0.1` and `localhost`
/// from a certificate authority generated for the run, trustme), written in Python with the
/// reference implementations: each request's body is decrypted with `http_ece` (RFC 8188/8291)
/// using the subscription key pair the service made, and its `Authorization` is checked as
/// RFC 8292 says with `py_vapid` (signature by the `k` key) and PyJWT (claims).
///
/// The endpoint's path decides the answer: `/push/ok/…` 201, `/push/gone/…` 410,
/// `/push/missing/…` 404, `/push/busy/…` 503 on the first request to that path and 201
/// after, `/push/later/…` 429 with `Retry-After: 120` on the first request and 201 after. Every request is reported as one ``Request``.
final class LoopbackPushService {
    /// What the service received and made of it.
    struct Request {
        let path: String
        let status: Int
        /// The decrypted payload, or nil when it did not decrypt.
        let plaintext: String?
        let ttl: String?
        let urgency: String?
        let topic: String?
        let contentEncoding: String?
        /// Whether py_vapid verified the token's signature with the header's `k` key.
        let vapidSignatureValid: Bool
        /// The token's header and claims, and the `k` key.
        let vapidAlgorithm: String?
        let vapidType: String?
        let audience: String?
        let subject: String?
        let expiresAt: Double?
        let publicKey: String?
        let error: String?
    }

    private let peer: PythonPeer
    /// The listening port.
    let port: Int
    /// The PEM file of the authority that signed the service's certificate (`--outbound-ca-file`).
    let authorityFile: String
    /// The subscription keys the service decrypts with: the browser's `p256dh` and `auth`.
    let p256dh: String
    let auth: String

    /// Where its files are (removed by ``stop()``).
    private let directory: String

    init() throws {
        directory = try LoopbackTLSPeer.directory("push-service")
        peer = try PythonPeer(script: LoopbackTLSPeer.python + Self.script, arguments: [directory])
        let ready = try peer.readJSON()
        port = ready["port"] as? Int ?? 0
        p256dh = ready["p256dh"] as? String ?? ""
        auth = ready["auth"] as? String ?? ""
        authorityFile = directory + "/ca.pem"
    }

    /// An endpoint URL answering as `behaviour` (`ok`, `gone`, `missing`, `busy`, `later`).
    func endpoint(_ behaviour: String, _ name: String = "device") -> String {
        "https://127.0.0.1:\(port)/push/\(behaviour)/\(name)"
    }

    /// The next request the service received; waits for it.
    func nextRequest() throws -> Request {
        let line = try peer.readJSON()
        return Request(
            path: line["path"] as? String ?? "", status: line["status"] as? Int ?? 0, plaintext: line["plaintext"] as? String,
            ttl: line["ttl"] as? String, urgency: line["urgency"] as? String, topic: line["topic"] as? String,
            contentEncoding: line["contentEncoding"] as? String, vapidSignatureValid: line["vapidValid"] as? Bool ?? false,
            vapidAlgorithm: line["alg"] as? String, vapidType: line["typ"] as? String, audience: line["aud"] as? String,
            subject: line["sub"] as? String, expiresAt: line["exp"] as? Double, publicKey: line["k"] as? String,
            error: line["error"] as? String)
    }

    func stop() {
        peer.stop()
        LoopbackTLSPeer.remove(directory)
    }

    private static let script = #"""
    import base64, json, os, sys, threading
    from http.server import BaseHTTPRequestHandler
    import http_ece, jwt, py_vapid
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    directory = sys.argv[1]
    def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    receiver = ec.generate_private_key(ec.SECP256R1())
    p256dh = receiver.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)
    seen, lock = set(), threading.Lock()

    def check_vapid(header, report):
        scheme, _, params = header.partition(" ")
        assert scheme == "vapid", "scheme " + scheme
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        token, key = parts["t"], parts["k"]
        report["k"] = key
        head, _, signature = token.rpartition(".")
        report["vapidValid"] = bool(py_vapid.Vapid02().from_raw_public(key.encode()).verify_token(
            validation_token=head.encode(), verification_token=signature))
        report.update({k: v for k, v in jwt.get_unverified_header(token).items() if k in ("alg", "typ")})
        claims = jwt.decode(token, options={"verify_signature": False})
        report.update({"aud": claims.get("aud"), "sub": claims.get("sub"), "exp": float(claims.get("exp", 0))})

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            behaviour = self.path.split("/")[2] if self.path.startswith("/push/") else "missing"
            with lock:
                first = self.path not in seen
                seen.add(self.path)
            status = {"ok": 201, "gone": 410, "missing": 404}.get(behaviour, (429 if behaviour == "later" else 503) if first else 201)
            report = {"path": self.path, "status": status, "ttl": self.headers["TTL"], "urgency": self.headers["Urgency"],
                      "topic": self.headers["Topic"], "contentEncoding": self.headers["Content-Encoding"]}
            try:
                check_vapid(self.headers["Authorization"] or "", report)
                report["plaintext"] = http_ece.decrypt(body, private_key=receiver, auth_secret=auth, version="aes128gcm").decode()
            except Exception as error:
                report["error"] = repr(error)
            self.send_response(status)
            if status == 429: self.send_header("Retry-After", "120")
            self.send_header("Content-Length", "0")
            self.end_headers()
            with lock:
                print(json.dumps(report), flush=True)

    serve_tls(Handler, directory, lambda server: print(
        json.dumps({"port": server.server_address[1], "p256dh": b64(p256dh), "auth": b64(auth)}), flush=True))
    """#
}
