import Testing
import HearthHTTP
import Synchronization

/// A server on a free loopback port for one test, stopped when the test is done.
struct LiveServer: ~Copyable {
    let server: HTTPServer
    let address: SocketAddress

    init(
        configure: (inout HTTPServerConfiguration) -> Void = { _ in }, observer: (any HTTPServerObserver)? = nil,
        routes: (inout Router) -> Void
    ) throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 2
        configure(&configuration)
        var router = Router()
        routes(&router)
        server = HTTPServer(configuration: configuration, router: router, observer: observer)
        address = try server.start()
    }

    func client() throws -> HTTPTestClient {
        try HTTPTestClient(connectingTo: address)
    }

    deinit {
        server.shutdown(gracePeriod: .zero)
        server.waitUntilStopped()
    }
}

/// Records what the server reports, for assertions.
final class RecordingObserver: HTTPServerObserver {
    let records = Mutex<[HTTPRequestRecord]>([])
    let opened = Atomic<Int>(0)
    let closed = Atomic<Int>(0)

    func connectionOpened() { opened.add(1, ordering: .relaxed) }
    func connectionClosed() { closed.add(1, ordering: .relaxed) }
    func requestCompleted(_ record: HTTPRequestRecord) { records.withLock { $0.append(record) } }
}

/// Live tests block a test thread on socket reads while async handlers need a free one, so they run one at a time.
@Suite(.serialized) enum LiveTests {}
