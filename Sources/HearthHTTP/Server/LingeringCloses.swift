import CSystem
import Glibc

/// Sockets whose last response is queued in the kernel and which the loop closes gracefully:
/// it half-closes them (the FIN follows the response), reads and discards whatever the client
/// still sends until the client closes its side or the linger timeout passes, and only then
/// closes the descriptor ("lingering close", as Apache httpd does it).
///
/// Why: closing a socket with unread input makes the kernel send a reset instead of a FIN, and
/// a reset that reaches the client before it has read the response destroys the response in
/// the client's receive buffer (it sees ECONNRESET). A 503 refusal at `maxConnections` meets
/// this whenever the client's request arrives before the refusal is closed.
///
/// Bounded: at most `maxLingeringConnections` sockets linger across the server's loops, each
/// for at most `lingerTimeout`; beyond the cap a socket is drained once and closed at once.
/// Confined to its loop's thread, like the loop's connections.
final class LingeringCloses {
    /// Set in the epoll token of a lingering socket (connection tokens never set it); the low
    /// bits hold the descriptor.
    static let tokenFlag: UInt64 = 1 << 63

    private let epollFD: Int32
    private let context: ServerContext
    private let buffer: UnsafeMutableRawBufferPointer
    private var deadlines: [Int32: UInt64] = [:]

    /// Lingering on `epollFD`'s loop, reading into the loop's shared `buffer`.
    init(epollFD: Int32, context: ServerContext, buffer: UnsafeMutableRawBufferPointer) {
        self.epollFD = epollFD
        self.context = context
        self.buffer = buffer
    }

    /// Whether no socket lingers.
    var isEmpty: Bool { deadlines.isEmpty }

    /// Starts closing `fd` gracefully at `now`; from here on it belongs to this object.
    /// - Parameter registered: whether `fd` is in the loop's epoll set already (a connection's
    ///   socket) rather than not yet (a refused one).
    func begin(_ fd: Int32, registered: Bool, now: UInt64) {
        shutdown(fd, Int32(SHUT_WR))
        guard Self.discardInput(fd, buffer: buffer) else {
            closeDescriptor(fd)
            return
        }
        guard context.lingeringConnections.add(1, ordering: .relaxed).newValue <= context.configuration.maxLingeringConnections
        else {
            context.lingeringConnections.subtract(1, ordering: .relaxed)
            closeDescriptor(fd)
            return
        }
        let token = Self.tokenFlag | UInt64(UInt32(bitPattern: fd))
        let operation = registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD
        do throws(SystemError) {
            try blockingSyscall("epoll_ctl") {
                Int(csystem_epoll_ctl(epollFD, operation, fd, CSYSTEM_EPOLLIN | CSYSTEM_EPOLLRDHUP | CSYSTEM_EPOLLET, token))
            }
        } catch {
            context.lingeringConnections.subtract(1, ordering: .relaxed)
            closeDescriptor(fd)
            return
        }
        deadlines[fd] = now &+ context.lingerTimeout
    }

    /// Reads what arrived on the lingering socket of `token`; closes it once input has ended.
    func handle(token: UInt64) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: token))
        guard deadlines[fd] != nil else { return }
        if !Self.discardInput(fd, buffer: buffer) { finish(fd) }
    }

    /// Closes the sockets whose linger timeout has passed at `now`.
    func expire(now: UInt64) {
        for (fd, deadline) in deadlines where now >= deadline { finish(fd) }
    }

    /// Closes every lingering socket (the loop is ending).
    func closeAll() {
        for fd in Array(deadlines.keys) { finish(fd) }
    }

    /// Closes `fd` without lingering, when there is no descriptor to spare: half-closes it, reads what has
    /// arrived and closes it. Input arriving after that still meets a reset.
    static func closeAfterDraining(_ fd: Int32, buffer: UnsafeMutableRawBufferPointer) {
        shutdown(fd, Int32(SHUT_WR))
        _ = discardInput(fd, buffer: buffer)
        closeDescriptor(fd)
    }

    private func finish(_ fd: Int32) {
        deadlines[fd] = nil
        closeDescriptor(fd)
        context.lingeringConnections.subtract(1, ordering: .relaxed)
    }

    /// Reads and drops what the kernel holds for `fd`, at most 16 buffers a time so a client
    /// streaming at full speed cannot hold the loop (its next bytes raise a new edge).
    /// - Returns: whether input is still open (false at end of input or on an error).
    private static func discardInput(_ fd: Int32, buffer: UnsafeMutableRawBufferPointer) -> Bool {
        for _ in 0..<16 {
            do throws(SystemError) {
                switch try syscall("read", { read(fd, buffer.baseAddress, buffer.count) }) {
                case .wouldBlock: return true
                case .done(0): return false
                case .done: continue
                }
            } catch {
                return false
            }
        }
        return true
    }
}
