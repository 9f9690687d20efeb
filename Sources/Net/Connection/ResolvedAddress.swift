import CSystem
import Glibc

/// One address a host name resolved to, with the port: what a ``TCPConnection`` connects to.
/// Keeping the resolver's answer as values lets a caller check the addresses (an
/// ``OutboundAddressPolicy``) and then connect to exactly those, with no second lookup in between.
public struct ResolvedAddress: Sendable, Hashable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The IP address in network order: 4 bytes for IPv4, 16 for IPv6.
    public let ipAddress: [UInt8]
    /// The TCP port.
    public let port: Int
    /// The `sockaddr_in` or `sockaddr_in6` bytes `connect` takes.
    let socketAddress: [UInt8]
    /// The host as it was asked for, `host:port` (IPv6 literals bracketed), for errors.
    public let peer: String

    /// The numeric address, e.g. `127.0.0.1` or `::1`.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        ipAddress.withUnsafeBytes { _ = inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Resolves `host` (a name, an IPv4 or an IPv6 address) to its stream addresses in the
    /// resolver's order, IPv4 and IPv6 alike.
    /// - Throws: `NetworkError` `.cannotResolve`.
    public static func resolve(host: String, port: Int) throws(NetworkError) -> [ResolvedAddress] {
        try lookUp(host: host, port: port, flags: 0)
    }

    /// The address `host` spells when it is a numeric IPv4 or IPv6 address; nil for a name
    /// (nothing is looked up).
    public static func numeric(host: String, port: Int) -> ResolvedAddress? {
        try? lookUp(host: host, port: port, flags: AI_NUMERICHOST).first
    }

    private static func lookUp(host: String, port: Int, flags: Int32) throws(NetworkError) -> [ResolvedAddress] {
        let peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_flags = flags
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, list != nil else {
            let detail = status == EAI_SYSTEM ? SystemCall.reason(csystem_errno()) : String(cString: gai_strerror(status))
            throw NetworkError(code: .cannotResolve, peer: peer, detail: detail)
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var candidate = list
        while let entry = candidate?.pointee {
            candidate = entry.ai_next
            if let address = ResolvedAddress(entry, port: port, peer: peer), !addresses.contains(address) { addresses.append(address) }
        }
        guard !addresses.isEmpty else { throw NetworkError(code: .cannotResolve, peer: peer, detail: "no IPv4 or IPv6 address") }
        return addresses
    }

    /// The address of one resolver entry; nil for families other than IPv4 and IPv6.
    private init?(_ entry: addrinfo, port: Int, peer: String) {
        guard let pointer = entry.ai_addr else { return nil }
        let raw = UnsafeRawPointer(pointer)
        switch entry.ai_family {
        case AF_INET:
            var address = raw.load(as: sockaddr_in.self)
            ipAddress = withUnsafeBytes(of: &address.sin_addr) { Array($0) }
        case AF_INET6:
            var address = raw.load(as: sockaddr_in6.self)
            ipAddress = withUnsafeBytes(of: &address.sin6_addr) { Array($0) }
        default:
            return nil
        }
        family = entry.ai_family
        self.port = port
        self.peer = peer
        socketAddress = Array(UnsafeRawBufferPointer(start: raw, count: Int(entry.ai_addrlen)))
    }
}
