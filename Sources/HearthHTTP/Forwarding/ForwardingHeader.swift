import Support

/// The header in which trusted proxies state the addresses a request came through, each
/// appending the address it received the request from.
public enum ForwardingHeader: String, Sendable, CaseIterable {
    /// `X-Forwarded-For: client, proxy1, proxy2`: the de-facto standard that nginx, HAProxy,
    /// Caddy, Traefik and the cloud load balancers append to.
    case xForwardedFor = "x-forwarded-for"
    /// `Forwarded: for=client, for="[2001:db8::1]:4711"` (RFC 7239); only its `for` parameters
    /// are read.
    case forwarded = "forwarded"

    /// The header's field name.
    public var fieldName: String {
        switch self {
        case .xForwardedFor: "X-Forwarded-For"
        case .forwarded: "Forwarded"
        }
    }

    /// The hops one field line names, left (furthest from us) to right. An element that does not
    /// name a hop is nil; the whole line is nil when it does not follow the header's syntax
    /// (`Forwarded` only: a broken quoted string leaves no element boundary to trust).
    func nodes(in line: String) -> [ForwardedNode?]? {
        switch self {
        case .xForwardedFor:
            line.split(separator: ",", omittingEmptySubsequences: false).map { element in
                ForwardedNode(element.trimmingSpaces()[...], allowsBareIPv6: true)
            }
        case .forwarded:
            ForwardedElements.nodes(in: line)
        }
    }
}
