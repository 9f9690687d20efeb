import CSystem
import Glibc

/// An IPv4 or IPv6 socket address.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric host (`127.0.0.1`, `::1`).
    public let host: String
    /// The port.
    public let port: Int

    /// An address from its parts.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with IPv6 hosts in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The host part of a `host:port` or `[v6-host]:port` text (the text itself when it has no port).
    public static func host(of address: String) -> String {
        let utf8 = address.utf8
        if utf8.first == UInt8(ascii: "["), let end = utf8.firstIndex(of: UInt8(ascii: "]")) {
            return String(address[utf8.index(after: utf8.startIndex)..<end])
        }
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return address }
        return String(address[..<colon])
    }

    /// Reads a `sockaddr_storage` filled by the kernel.
    init(_ storage: sockaddr_storage) {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            let (host, port) = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                    return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(UInt16(bigEndian: address.pointee.sin_port)))
                }
            }
            self.init(host: host, port: port)
        case AF_INET6:
            let (host, port) = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
                    return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(UInt16(bigEndian: address.pointee.sin6_port)))
                }
            }
            self.init(host: host, port: port)
        default:
            self.init(host: "unknown", port: 0)
        }
    }

    /// Builds the `sockaddr` for a numeric host; throws `EINVAL` from `inet_pton` when the host is not an IP.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t, Int32) throws(SystemError) -> Result)
        throws(SystemError) -> Result
    {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                throw SystemError(code: EINVAL, call: "inet_pton")
            }
            return try withUnsafePointer(to: &address) { pointer throws(SystemError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer throws(SystemError) in
                    try body(sockaddrPointer, socklen_t(MemoryLayout<sockaddr_in6>.size), AF_INET6)
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SystemError(code: EINVAL, call: "inet_pton")
        }
        return try withUnsafePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer throws(SystemError) in
                try body(sockaddrPointer, socklen_t(MemoryLayout<sockaddr_in>.size), AF_INET)
            }
        }
    }
}
