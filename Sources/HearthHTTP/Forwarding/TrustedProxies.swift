/// The reverse proxies whose forwarding header says who the client is, and how to read it.
///
/// Behind a proxy every request comes from the proxy's address, so per-address limits would
/// throttle all clients together. For a request whose peer lies in one of ``networks``, the
/// client address is read from ``header`` with the safe algorithm: walk the addresses from the
/// right (the one our peer appended) to the left, skip those that are trusted proxies
/// themselves, and take the first that is not. Addresses left of it were written by whoever sent
/// the request to the first trusted proxy, so anything a client puts there (a spoofed
/// `X-Forwarded-For: 127.0.0.1`) is never reached. When every address is a trusted proxy, the
/// left-most one is the client.
///
/// The peer address stays the client's when the peer is not trusted (its headers are ignored),
/// when the header is absent, and when the walk meets a hop it cannot use before reaching the
/// client: a malformed entry, an `unknown` or obfuscated (`_hidden`) identifier, a `Forwarded`
/// element without `for`, or a `Forwarded` line that breaks the RFC 7239 grammar.
public struct TrustedProxies: Sendable {
    /// The trusted blocks; empty (the default) trusts no one and ignores forwarding headers.
    public var networks: [IPNetwork]
    /// The header the proxies append to. Default `X-Forwarded-For`. Read only that one: a proxy
    /// passes the other through untouched, so a client could write anything in it.
    public var header: ForwardingHeader

    /// Proxies in `networks` stating the client in `header`.
    public init(networks: [IPNetwork] = [], header: ForwardingHeader = .xForwardedFor) {
        self.networks = networks
        self.header = header
    }

    /// Whether `address` is a trusted proxy.
    public func contains(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The client address of a request that came from `peer` with `headers`.
    public func clientAddress(peer: IPAddress, headers: HTTPHeaders) -> IPAddress {
        guard contains(peer) else { return peer }
        var client = peer
        for line in headers.values(name: header.fieldName).reversed() {
            guard let nodes = header.nodes(in: line) else { return peer }
            for node in nodes.reversed() {
                guard case .address(let address)? = node else { return peer }
                guard contains(address) else { return address }
                client = address
            }
        }
        return client
    }
}
