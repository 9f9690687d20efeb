import Support

/// The scheme and host a client addressed a request to, e.g. `https` and `hearth.example.org`.
public struct RequestedOrigin: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`.
    public var scheme: String
    /// The host, with its port when one was given (`[::1]:8080`).
    public var host: String

    /// `scheme://host`.
    public var description: String { scheme + "://" + host }
}

extension TrustedProxies {
    /// The origin the client addressed: `http` and the request's `Host`, or, when the peer is a
    /// trusted proxy, the scheme and host it states (`X-Forwarded-Proto` and `X-Forwarded-Host`
    /// with `X-Forwarded-For`; the `proto` and `host` of the last element with `Forwarded`),
    /// each falling back to the above when absent. Only the value the trusted peer set is read
    /// (the last one): what a client wrote further left is never reached.
    ///
    /// - Returns: nil when the host is missing or holds characters a host never has (a client
    ///   must not be able to write markup or another URL into a document built from it), or the
    ///   scheme is not `http`/`https`.
    public func requestedOrigin(peer: IPAddress?, headers: HTTPHeaders) -> RequestedOrigin? {
        var scheme = "http"
        var host = headers["Host"]
        if let peer, contains(peer) {
            switch header {
            case .xForwardedFor:
                if let proto = Self.lastElement(headers.values(name: "X-Forwarded-Proto")) { scheme = proto.lowercased() }
                if let forwardedHost = Self.lastElement(headers.values(name: "X-Forwarded-Host")) { host = forwardedHost }
            case .forwarded:
                if let line = headers.values(name: "Forwarded").last,
                   let element = ForwardedElements.elements(in: line)?.last {
                    if let proto = element.last(where: { $0.name == "proto" })?.value { scheme = proto.lowercased() }
                    if let forwardedHost = element.last(where: { $0.name == "host" })?.value { host = forwardedHost }
                }
            }
        }
        guard scheme == "http" || scheme == "https", let host, Self.isHost(host) else { return nil }
        return RequestedOrigin(scheme: scheme, host: host.lowercased())
    }

    /// The right-most comma-separated element of the last line, trimmed; nil when empty.
    private static func lastElement(_ lines: [String]) -> String? {
        guard let element = lines.last?.split(separator: ",").last?.trimmingSpaces(), !element.isEmpty else { return nil }
        return String(element)
    }

    /// A host name, IPv4 address or bracketed IPv6 address, with an optional port.
    private static func isHost(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 261 && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                true
            default:
                false
            }
        }
    }
}
