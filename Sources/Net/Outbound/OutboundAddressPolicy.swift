/// Where the server may connect when a user supplied the URL (a Web Push endpoint, a calendar
/// feed): only `https://`, and only to public unicast addresses, so a user cannot make the
/// server reach its own host or network (server-side request forgery).
///
/// ``addresses(for:)`` resolves the URL's host once and keeps the addresses the policy permits;
/// the caller connects to exactly those (``TCPConnection/connect(to:deadline:)``), so a DNS
/// answer that changes between the check and the connection (rebinding) cannot slip through. A
/// client following redirects checks each new URL the same way; ``HTTPClient`` returns
/// redirects rather than following them.
///
/// Refused (``refusal(of:)``), also when written as an IPv4-mapped (`::ffff:0:0/96`),
/// IPv4-compatible (`::/96`), NAT64 (`64:ff9b::/96`) or 6to4 (`2002::/16`) IPv6 address:
/// unspecified (`0.0.0.0/8`, `::`), loopback (`127.0.0.0/8`, `::1`), private (`10.0.0.0/8`,
/// `172.16.0.0/12`, `192.168.0.0/16`, `fc00::/7`), shared address space (CGNAT,
/// `100.64.0.0/10`), link-local (`169.254.0.0/16`, `fe80::/10`, and the deprecated site-local
/// `fec0::/10`), multicast (`224.0.0.0/4`, `ff00::/8`), reserved and broadcast (`240.0.0.0/4`).
public struct OutboundAddressPolicy: Sendable, Hashable {
    /// Whether loopback addresses (`127.0.0.0/8`, `::1`) are permitted: for tests and
    /// development against a push service or feed on the same host only.
    public var allowsLoopback: Bool

    /// The policy; loopback is refused unless `allowsLoopback`.
    public init(allowsLoopback: Bool = false) {
        self.allowsLoopback = allowsLoopback
    }

    /// The addresses of `url`'s host the policy permits, in the resolver's order.
    /// - Throws: `NetworkError` `.addressRefused` when `url` is not `https://` or every address
    ///   is refused (naming the first and why); `.cannotResolve`.
    public func addresses(for url: HTTPURL) throws(NetworkError) -> [ResolvedAddress] {
        guard url.isSecure else {
            throw NetworkError(code: .addressRefused, peer: url.description, detail: "only https:// URLs may be fetched")
        }
        let resolved = try ResolvedAddress.resolve(host: url.host, port: url.port)
        let permitted = resolved.filter { refusal(of: $0.ipAddress) == nil }
        guard !permitted.isEmpty else {
            let first = resolved[0]
            throw NetworkError(
                code: .addressRefused, peer: url.description,
                detail: "\(url.host) resolves to \(first), a \(refusal(of: first.ipAddress) ?? "refused") address")
        }
        return permitted
    }

    /// Why the policy refuses `address` (4 bytes IPv4 or 16 bytes IPv6, network order), e.g.
    /// `private`; nil when it is permitted.
    public func refusal(of address: [UInt8]) -> String? {
        switch address.count {
        case 4: refusal(ipv4: address)
        case 16: refusal(ipv6: address)
        default: "malformed"
        }
    }

    private func refusal(ipv4 a: [UInt8]) -> String? {
        switch (a[0], a[1]) {
        case (0, _): "unspecified"
        case (127, _): allowsLoopback ? nil : "loopback"
        case (10, _), (172, 16...31), (192, 168): "private"
        case (100, 64...127): "shared (CGNAT)"
        case (169, 254): "link-local"
        case (224...239, _): "multicast"
        case (240...255, _): "reserved"
        default: nil
        }
    }

    private func refusal(ipv6 a: [UInt8]) -> String? {
        let zeros = a[0..<10].allSatisfy { $0 == 0 }
        if zeros, a[10] == 0xFF, a[11] == 0xFF { return refusal(ipv4: Array(a[12...])) }
        if a[0..<12].allSatisfy({ $0 == 0 }) {
            if a[12..<15].allSatisfy({ $0 == 0 }) {
                switch a[15] {
                case 0: return "unspecified"
                case 1: return allowsLoopback ? nil : "loopback"
                default: break
                }
            }
            return refusal(ipv4: Array(a[12...]))
        }
        if a[0...3] == [0x00, 0x64, 0xFF, 0x9B], a[4..<12].allSatisfy({ $0 == 0 }) { return refusal(ipv4: Array(a[12...])) }
        if a[0] == 0x20, a[1] == 0x02 { return refusal(ipv4: Array(a[2...5])) }
        switch (a[0], a[1] & 0xC0) {
        case (0xFC...0xFD, _): return "private"
        case (0xFE, 0x80): return "link-local"
        case (0xFE, 0xC0): return "site-local"
        case (0xFF, _): return "multicast"
        default: return nil
        }
    }
}
