import CSystem
import Glibc

/// Opening listening sockets and accepted-socket options.
enum Listener {
    /// A non-blocking listening socket on `address` with `SO_REUSEADDR` and `SO_REUSEPORT`, so each event loop
    /// can own a listener on the same port and the kernel spreads connections across them.
    static func open(_ address: SocketAddress, backlog: Int32) throws(SystemError) -> (fd: Int32, bound: SocketAddress) {
        try address.withSockaddr { sockaddrPointer, length, family throws(SystemError) in
            let fd = Int32(try blockingSyscall("socket") { Int(csystem_stream_socket(family)) })
            do throws(SystemError) {
                try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
                try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1)
                if family == AF_INET6 { try setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
                try blockingSyscall("bind") { Int(bind(fd, sockaddrPointer, length)) }
                try blockingSyscall("listen") { Int(listen(fd, backlog)) }
                return (fd, try localAddress(fd))
            } catch {
                closeDescriptor(fd)
                throw error
            }
        }
    }

    /// The address a socket is bound to (the real port after binding port 0).
    static func localAddress(_ fd: Int32) throws(SystemError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer throws(SystemError) in
                try blockingSyscall("getsockname") { Int(getsockname(fd, sockaddrPointer, &length)) }
            }
        }
        return SocketAddress(storage)
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SystemError) {
        var value = value
        try blockingSyscall("setsockopt") {
            Int(setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)))
        }
    }
}
