import HearthHTTP

/// `GET /.well-known/hearth` (FR-68), readable by any web client: `Access-Control-Allow-Origin: *`
/// (the document is public and no credentials are involved) and an `OPTIONS` preflight answer.
/// Caches and clients may keep it for five minutes.
struct DiscoveryRoutes {
    /// The document's path, under RFC 8615's well-known prefix.
    static let path = "/.well-known/hearth"
    /// How long the document may be cached, in seconds.
    static let maxAge = 300

    /// What the document says.
    let document: DiscoveryDocument
    /// Whose forwarding headers name the origin a client addressed (``TrustedProxies/requestedOrigin(peer:headers:)``).
    let trustedProxies: TrustedProxies

    /// Adds `GET` (and `HEAD`) and `OPTIONS` for ``path``.
    func register(in router: inout Router) {
        router.get(Self.path) { [document, trustedProxies] request, responder in
            let origin = trustedProxies.requestedOrigin(
                peer: IPAddress(SocketAddress.host(of: request.remoteAddress)), headers: request.headers)
            var headers: HTTPHeaders = [
                "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=\(Self.maxAge)",
                "Access-Control-Allow-Origin": "*",
            ]
            if document.configuredBaseURL == nil {
                headers.add(name: "Vary", value: "Host, X-Forwarded-Proto, X-Forwarded-Host, Forwarded")
            }
            let body = document.json(baseURL: document.baseURL(requestedOrigin: origin)).serialized(pretty: true)
            responder.send(HTTPResponse(status: .ok, headers: headers, body: body))
        }
        router.on(.options, Self.path) { request, responder in
            var headers: HTTPHeaders = [
                "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
                "Access-Control-Max-Age": "86400", "Allow": "GET, HEAD, OPTIONS",
            ]
            if let requested = request.headers["Access-Control-Request-Headers"] {
                headers.add(name: "Access-Control-Allow-Headers", value: requested)
            }
            responder.send(HTTPResponse(status: .noContent, headers: headers))
        }
    }
}
