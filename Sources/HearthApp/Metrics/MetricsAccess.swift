import HearthHTTP
import Support

/// Who may read `/metrics`. Its series tell an outsider the traffic per route, the error
/// rates, the pool's load and the exact build, so by default only the host itself (a local
/// Prometheus agent, an SSH tunnel) may read them.
///
/// - `loopback` (default): the TCP peer must be a loopback address. Decided on the peer, never
///   on the client a forwarding header names, so no header makes a remote client look local;
///   and a request that a trusted proxy forwards (the peer is in `--trusted-proxies` and sent
///   the forwarding header) is refused even when the proxy runs on this host, since it came
///   from somewhere else. A proxy on this host that is not declared trusted cannot be told
///   apart from a local client: block `/metrics` there, or use `token`.
/// - `token`: every request needs `Authorization: Bearer <token>` with the token of
///   `--metrics-token-file` (compared in constant time), from anywhere, loopback included.
/// - `public`: anyone who reaches the server.
struct MetricsAccess: Sendable {
    /// The access rule.
    enum Mode: String, Sendable, CaseIterable {
        /// Loopback peers only.
        case loopback
        /// A bearer token.
        case token
        /// Everyone.
        case `public`
    }

    /// The rule in force.
    let mode: Mode
    /// SHA-256 of the token (`token` mode): comparing digests keeps the token's length out of
    /// the comparison's timing too.
    private let tokenDigest: [UInt8]
    /// Tells forwarded requests apart from local ones in `loopback` mode.
    private let trustedProxies: TrustedProxies

    /// Access for loopback peers only.
    static func loopback(trustedProxies: TrustedProxies = TrustedProxies()) -> MetricsAccess {
        MetricsAccess(mode: .loopback, tokenDigest: [], trustedProxies: trustedProxies)
    }

    /// Access with `Authorization: Bearer token`.
    static func token(_ token: String) -> MetricsAccess {
        MetricsAccess(mode: .token, tokenDigest: SHA256.digest(Array(token.utf8)), trustedProxies: TrustedProxies())
    }

    /// Access for everyone.
    static let everyone = MetricsAccess(mode: .public, tokenDigest: [], trustedProxies: TrustedProxies())

    /// The answer refusing `request`, or nil when it may read the metrics.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        switch mode {
        case .public:
            return nil
        case .loopback:
            let peer = IPAddress(SocketAddress.host(of: request.remoteAddress))
            let forwarded = peer.map { trustedProxies.contains($0) } == true
                && request.headers.contains(name: trustedProxies.header.fieldName)
            guard peer?.isLoopback != true || forwarded else { return nil }
            return .text("metrics are served to loopback clients only (see --metrics-access)\n", status: .forbidden)
        case .token:
            if let presented = request.headers["Authorization"].flatMap(HTTPHeaders.bearerToken(in:)),
                ConstantTime.equals(SHA256.digest(Array(presented.utf8)), tokenDigest)
            {
                return nil
            }
            var response = HTTPResponse.text("metrics need the bearer token of --metrics-token-file\n", status: .unauthorized)
            response.headers.add(name: "WWW-Authenticate", value: "Bearer realm=\"metrics\"")
            return response
        }
    }
}
