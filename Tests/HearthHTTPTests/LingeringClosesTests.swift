import CSystem
import Glibc
@testable import HearthHTTP
import Testing

/// The lingering close on socket pairs: what the client side sees tells whether the server side is still open.
struct LingeringClosesTests {
    let second: UInt64 = 1_000_000_000

    /// A lingering-close set on its own epoll descriptor, and the sockets handed to it.
    final class Harness {
        let context: ServerContext
        let lingering: LingeringCloses
        private let epollFD: Int32
        private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

        init(maxLingering: Int) {
            var configuration = HTTPServerConfiguration()
            configuration.maxLingeringConnections = maxLingering
            configuration.lingerTimeout = .seconds(2)
            context = ServerContext(configuration: configuration, router: Router(), observer: nil)
            epollFD = csystem_epoll_create()
            lingering = LingeringCloses(epollFD: epollFD, context: context, buffer: buffer)
        }

        deinit {
            lingering.closeAll()
            closeDescriptor(epollFD)
            buffer.deallocate()
        }

        /// A connected pair: the server end (non-blocking, handed to the caller) and the client end.
        func socketPair() -> (server: Int32, client: Int32) {
            var fds: [Int32] = [-1, -1]
            let status = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds)
            precondition(status == 0, "socketpair failed")
            return (fds[0], fds[1])
        }

        var count: Int { context.lingeringConnections.load(ordering: .relaxed) }
    }

    /// Whether the other end is still open: a write succeeds, or fails with EPIPE once it has closed.
    static func peerIsOpen(_ client: Int32) -> Bool {
        let byte: [UInt8] = [0x41]
        return byte.withUnsafeBytes { send(client, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) } == 1
    }

    /// What a read on the client end returns now: the byte count, 0 at end of input, -1 when nothing is there.
    static func readNow(_ client: Int32) -> Int {
        var byte: UInt8 = 0
        return recv(client, &byte, 1, Int32(MSG_DONTWAIT))
    }

    @Test func halfClosesAtOnceAndDiscardsInputUntilTheClientClosesItsSide() {
        let harness = Harness(maxLingering: 4)
        let (server, client) = harness.socketPair()
        defer { closeDescriptor(client) }
        _ = Array("GET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        harness.lingering.begin(server, registered: false, now: 0)
        #expect(Self.readNow(client) == 0, "the client sees the end of our output at once")
        #expect(harness.count == 1)
        #expect(Self.peerIsOpen(client), "late input is read and dropped, not answered with a reset")
        harness.lingering.handle(token: LingeringCloses.tokenFlag | UInt64(server))
        #expect(harness.count == 1)
        shutdown(client, Int32(SHUT_WR))
        harness.lingering.handle(token: LingeringCloses.tokenFlag | UInt64(server))
        #expect(harness.count == 0)
        #expect(!Self.peerIsOpen(client))
    }

    @Test func closesAtOnceWhenTheClientHasClosedItsSideAlready() {
        let harness = Harness(maxLingering: 4)
        let (server, client) = harness.socketPair()
        defer { closeDescriptor(client) }
        shutdown(client, Int32(SHUT_WR))
        harness.lingering.begin(server, registered: false, now: 0)
        #expect(harness.count == 0)
        #expect(harness.lingering.isEmpty)
        #expect(!Self.peerIsOpen(client))
    }

    @Test func closesWhenTheLingerTimeoutHasPassed() {
        let harness = Harness(maxLingering: 4)
        let (server, client) = harness.socketPair()
        defer { closeDescriptor(client) }
        harness.lingering.begin(server, registered: false, now: 10 * second)
        harness.lingering.expire(now: 12 * second - 1)
        #expect(Self.peerIsOpen(client))
        harness.lingering.expire(now: 12 * second)
        #expect(!Self.peerIsOpen(client))
        #expect(harness.count == 0)
    }

    @Test func lingersOnAtMostTheConfiguredNumberOfSockets() {
        let harness = Harness(maxLingering: 2)
        let pairs = (0..<3).map { _ in harness.socketPair() }
        defer { for pair in pairs { closeDescriptor(pair.client) } }
        for pair in pairs { harness.lingering.begin(pair.server, registered: false, now: 0) }
        #expect(harness.count == 2)
        #expect(pairs.map { Self.peerIsOpen($0.client) } == [true, true, false])
    }
}
