import Foundation
import HearthHTTP
import TestPython

/// A stand-in for Google's OAuth 2.0 endpoints and Calendar API v3 on 127.0.0.1, written in Python
/// after Google's documented shapes, behind TLS (trustme) as Google is; with a second, plain HTTP
/// port the test drives it through (and that plays the browser's authorization endpoint).
///
/// - Authorization (`GET /auth` on the control port): records the PKCE challenge and answers 302 to
///   the `redirect_uri` with a code and the `state`, as Google's consent screen does once the user agrees.
/// - Token endpoint (`POST /token`): checks the client's id and secret; `authorization_code` checks the
///   code is unused, the redirect URI the same, and `BASE64URL(SHA256(code_verifier))` equals the
///   challenge (RFC 7636 `S256`); `refresh_token` refuses a revoked token with `invalid_grant`.
/// - Revocation (`POST /revoke`).
/// - Calendar API (`/calendar/v3`): every request needs a bearer token it issued and has not
///   invalidated (else 401); `users/me/calendarList`; `calendars/<id>/events` listing with
///   `pageToken` (two events a page) and `syncToken` (the changes since; 410 once expired), and
///   insert (409 for an id that exists), update (404 for one that does not) and delete of events.
///
/// The control port: `POST /event/<calendar>` upserts an event (JSON, by id) as a change; `POST
/// /expire-sync-tokens`, `/revoke-grants`, `/invalidate-access`, `/expires-in/<seconds>`, `/fail-next/<status>` (the next
/// Calendar API request answers it, `403` as `rateLimitExceeded`, with `Retry-After: 3600`); `GET /state`
/// answers what happened (`log` of API requests, `issued` tokens, `revoked`, `exports`, `refreshes`).
final class LoopbackGoogleCalendar {
    /// The OAuth client the server is configured with.
    static let clientID = "hearth-test.apps.googleusercontent.com"
    static let clientSecret = "stand-in-client-secret"
    /// The account's calendars: id, summary, role.
    static let primary = "ana@example.com"
    static let family = "family@group.calendar.google.com"
    static let holidays = "en.german#holiday@group.v.calendar.google.com"

    private let peer: PythonPeer
    let port: Int
    let controlPort: Int
    let directory: String
    var authorityFile: String { directory + "/ca.pem" }
    var secretFile: String { directory + "/client-secret" }

    init() throws {
        directory = try LoopbackTLSPeer.directory("google")
        try (Self.clientSecret + "\n").write(toFile: directory + "/client-secret", atomically: true, encoding: .utf8)
        peer = try PythonPeer(script: LoopbackTLSPeer.python + Self.script, arguments: [directory, Self.clientID, Self.clientSecret])
        let ready = try peer.readJSON()
        port = ready["port"] as? Int ?? 0
        controlPort = ready["control"] as? Int ?? 0
    }

    /// The server's arguments connecting Google Calendar to this stand-in.
    var arguments: [String] {
        [
            "--google-client-id", Self.clientID, "--google-client-secret-file", secretFile,
            "--google-authorization-endpoint", "http://127.0.0.1:\(controlPort)/auth",
            "--google-token-endpoint", "https://127.0.0.1:\(port)/token", "--google-revocation-endpoint", "https://127.0.0.1:\(port)/revoke",
            "--google-calendar-api", "https://127.0.0.1:\(port)/calendar/v3", "--outbound-ca-file", authorityFile,
        ]
    }

    /// Sends `method path` with a JSON `body` to the control port; the response.
    @discardableResult
    func control(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> HTTPTestClient.Response {
        let client = try HTTPTestClient(connectingTo: SocketAddress(host: "127.0.0.1", port: controlPort))
        defer { client.close() }
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        try client.send("\(method) \(path) HTTP/1.1\r\nHost: google\r\nContent-Length: \(data.count)\r\nConnection: close\r\n\r\n" + String(decoding: data, as: UTF8.self))
        return try client.readResponse()
    }

    /// What the stand-in has seen so far.
    func state() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try control("GET", "/state").body)) as? [String: Any] ?? [:]
    }

    /// Upserts `event` (Google's JSON) in `calendar`, as a change the next sync sees.
    func put(_ event: [String: Any], in calendar: String = primary) throws {
        try control("POST", "/event/" + (calendar.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? calendar), event)
    }

    /// The user agrees at Google: opens `authorizationURL` (this stand-in's `/auth`) and answers the
    /// redirect's `code` and `state`, with the redirect's target.
    func consent(to authorizationURL: String) throws -> (code: String, state: String, location: String) {
        let query = String(authorizationURL.split(separator: "?", maxSplits: 1).last ?? "")
        let response = try control("GET", "/auth?" + query)
        let location = response.headers["Location"] ?? ""
        let parameters = Dictionary(
            (URLComponents(string: location)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        return (parameters["code"] ?? "", parameters["state"] ?? "", location)
    }

    func stop() {
        peer.stop()
        LoopbackTLSPeer.remove(directory)
    }

    private static let script = #"""
    import base64, hashlib, json, sys, threading, urllib.parse
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    directory, client_id, client_secret = sys.argv[1], sys.argv[2], sys.argv[3]
    lock = threading.Lock()
    calendars = [
        {"id": "ana@example.com", "summary": "ana@example.com", "primary": True, "accessRole": "owner"},
        {"id": "family@group.calendar.google.com", "summary": "Family", "accessRole": "writer"},
        {"id": "en.german#holiday@group.v.calendar.google.com", "summary": "Holidays in Germany", "accessRole": "reader"},
    ]
    state = {"codes": {}, "access": set(), "refresh": set(), "revoked": [], "issued": [], "refreshes": 0, "log": [],
             "events": {}, "seq": 0, "expired_below": 0, "expires_in": 3600, "exports": {}}

    def b64(data): return base64.urlsafe_b64encode(data).decode().rstrip("=")

    class Base(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def answer(self, status, body=None, headers=()):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            if body is not None: self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers: self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        def body(self):
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

    class Google(Base):
        def do_POST(self): self.route("POST")
        def do_GET(self): self.route("GET")
        def do_PUT(self): self.route("PUT")
        def do_DELETE(self): self.route("DELETE")
        def route(self, method):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            body = self.body()
            with lock:
                if url.path.startswith("/calendar/v3/") and state.get("fail_next"):
                    status, headers = state.pop("fail_next"), [("Retry-After", "3600")]
                    reason = "rateLimitExceeded" if status == 403 else "backendError"
                    state["log"].append({"method": method, "path": url.path, "query": {k: v[0] for k, v in query.items()}, "status": status})
                    return self.answer(status, {"error": {"code": status, "errors": [{"reason": reason}]}}, headers)
                if url.path == "/token": status, answer = self.token(urllib.parse.parse_qs(body.decode()))
                elif url.path == "/revoke": status, answer = self.revoke(urllib.parse.parse_qs(body.decode()))
                else: status, answer = self.api(method, url.path, query, body)
                state["log"].append({"method": method, "path": url.path, "query": {k: v[0] for k, v in query.items()}, "status": status})
            self.answer(status, answer)
        def token(self, form):
            field = lambda name: form.get(name, [None])[0]
            if field("client_id") != client_id or field("client_secret") != client_secret:
                return 401, {"error": "invalid_client"}
            if field("grant_type") == "authorization_code":
                code = state["codes"].pop(field("code"), None)
                if code is None or code["redirect_uri"] != field("redirect_uri"):
                    return 400, {"error": "invalid_grant", "error_description": "Bad code"}
                verifier = field("code_verifier") or ""
                if code["method"] != "S256" or b64(hashlib.sha256(verifier.encode()).digest()) != code["challenge"]:
                    return 400, {"error": "invalid_grant", "error_description": "Missing code verifier."}
                refresh = "1//refresh-%d" % (len(state["issued"]) + 1)
                state["refresh"].add(refresh)
                state["issued"].append(refresh)
                return 200, self.grant(refresh=refresh)
            if field("grant_type") == "refresh_token":
                if field("refresh_token") not in state["refresh"]:
                    return 400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."}
                state["refreshes"] += 1
                return 200, self.grant()
            return 400, {"error": "unsupported_grant_type"}
        def grant(self, refresh=None):
            access = "ya29.access-%d" % (len(state["issued"]) + 1)
            state["access"].add(access)
            state["issued"].append(access)
            answer = {"access_token": access, "expires_in": state["expires_in"], "token_type": "Bearer",
                      "scope": "https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events"}
            if refresh: answer["refresh_token"] = refresh
            return answer
        def revoke(self, form):
            token = form.get("token", [""])[0]
            if token not in state["refresh"] and token not in state["access"]: return 400, {"error": "invalid_token"}
            state["refresh"].discard(token)
            state["revoked"].append(token)
            return 200, {}
        def api(self, method, path, query, body):
            bearer = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            if bearer not in state["access"]:
                return 401, {"error": {"code": 401, "message": "Invalid Credentials", "errors": [{"reason": "authError"}]}}
            parts = [urllib.parse.unquote(part) for part in path.split("/")]
            if parts[:3] == ["", "calendar", "v3"]: parts = parts[3:]
            if parts == ["users", "me", "calendarList"] and method == "GET":
                return 200, {"kind": "calendar#calendarList", "items": calendars}
            if len(parts) >= 3 and parts[0] == "calendars" and parts[2] == "events":
                calendar = parts[1]
                if len(parts) == 3 and method == "GET": return self.list(calendar, query)
                exports = state["exports"].setdefault(calendar, {})
                if len(parts) == 3 and method == "POST":
                    event = json.loads(body)
                    if event["id"] in exports: return 409, {"error": {"code": 409, "message": "The requested identifier already exists."}}
                    exports[event["id"]] = event
                    return 200, event
                if len(parts) == 4 and method in ("PUT", "DELETE"):
                    if parts[3] not in exports: return 404, {"error": {"code": 404, "message": "Not Found"}}
                    if method == "DELETE":
                        del exports[parts[3]]
                        return 204, None
                    exports[parts[3]] = json.loads(body)
                    return 200, exports[parts[3]]
            return 404, {"error": {"code": 404, "message": "Not Found"}}
        def list(self, calendar, query):
            events = sorted(state["events"].get(calendar, {}).values(), key=lambda event: event["_seq"])
            sync = query.get("syncToken", [None])[0]
            if sync is not None:
                since = int(sync.removeprefix("st-"))
                if since < state["expired_below"]:
                    return 410, {"error": {"code": 410, "message": "Sync token is no longer valid, a full sync is required.", "errors": [{"reason": "fullSyncRequired"}]}}
                events = [event for event in events if event["_seq"] > since]
            elif query.get("showDeleted", ["false"])[0] != "true":
                events = [event for event in events if event.get("status") != "cancelled"]
            offset = int(query.get("pageToken", ["0"])[0])
            page = events[offset:offset + 2]
            answer = {"kind": "calendar#events", "items": [{k: v for k, v in event.items() if k != "_seq"} for event in page]}
            if offset + 2 < len(events): answer["nextPageToken"] = str(offset + 2)
            else: answer["nextSyncToken"] = "st-%d" % state["seq"]
            return 200, answer

    class Control(Base):
        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/state":
                with lock:
                    self.answer(200, {"revoked": state["revoked"], "issued": state["issued"], "refreshes": state["refreshes"],
                                      "log": state["log"], "exports": state["exports"]})
            elif url.path == "/auth":
                query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
                if query.get("client_id") != client_id or query.get("response_type") != "code":
                    return self.answer(400, {"error": "invalid_request"})
                with lock:
                    code = "4/code-%d" % (len(state["codes"]) + len(state["issued"]) + 1)
                    state["codes"][code] = {"challenge": query.get("code_challenge"), "method": query.get("code_challenge_method"),
                                            "redirect_uri": query.get("redirect_uri")}
                    state["last_auth"] = query
                target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"state": query.get("state", ""), "code": code, "scope": query.get("scope", "")})
                self.answer(302, {"auth": query}, [("Location", target)])
            else: self.answer(404, {})
        def do_POST(self):
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
            body = self.body()
            with lock:
                if path.startswith("/event/"):
                    event = json.loads(body)
                    state["seq"] += 1
                    event["_seq"] = state["seq"]
                    state["events"].setdefault(path[len("/event/"):], {})[event["id"]] = event
                elif path == "/expire-sync-tokens": state["expired_below"] = state["seq"] + 1
                elif path == "/revoke-grants": state["refresh"].clear()
                elif path == "/invalidate-access": state["access"].clear()
                elif path.startswith("/expires-in/"): state["expires_in"] = int(path[len("/expires-in/"):])
                elif path.startswith("/fail-next/"): state["fail_next"] = int(path[len("/fail-next/"):])
                else: return self.answer(404, {})
            self.answer(200, {})

    control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    threading.Thread(target=control.serve_forever, daemon=True).start()
    serve_tls(Google, directory, lambda server: print(json.dumps({"port": server.server_address[1], "control": control.server_address[1]}), flush=True))
    """#
}
