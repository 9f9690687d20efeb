import Dispatch
import Glibc
import Synchronization
import Support

/// An HTTP/1.1 server on `eventLoopCount` epoll event loops, each a thread with its own `SO_REUSEPORT`
/// listener. It knows nothing of the application: requests go to a `Router`, events to an optional observer.
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _, responder in responder.send(.text("ok\n")) }
/// let server = HTTPServer(configuration: configuration, router: router, observer: metrics)
/// let address = try server.start()            // the real port when configuration.port is 0
/// ...
/// server.shutdown(gracePeriod: .seconds(10))  // e.g. on SIGTERM
/// await server.run()                          // returns once every loop has exited
/// ```
///
/// A server starts once; after `shutdown` it stays stopped.
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running([EventLoop])
        case stopping
    }

    private let context: ServerContext
    private let state = Mutex<State>(.idle)
    private let stopped = DispatchGroup()

    /// A server that will serve `router` with `configuration` once started.
    public init(configuration: HTTPServerConfiguration, router: Router, observer: (any HTTPServerObserver)? = nil) {
        context = ServerContext(configuration: configuration, router: router, observer: observer)
    }

    /// Binds the listeners and starts the event-loop threads.
    /// - Returns: the bound address (with the port the kernel chose when the configured port is 0).
    /// - Throws: `SystemError` when the host is not a numeric IP address (`inet_pton`, `EINVAL`), the port is
    ///   taken (`bind`, `EADDRINUSE`), or the loops cannot be created. Nothing is left running then.
    public func start() throws(SystemError) -> SocketAddress {
        let configuration = context.configuration
        HTTPServer.raiseDescriptorLimit(toward: configuration.maxConnections + configuration.maxLingeringConnections)
        var loops: [EventLoop] = []
        var address = SocketAddress(host: configuration.host, port: configuration.port)
        do throws(SystemError) {
            for index in 0..<max(1, configuration.eventLoopCount) {
                let loop = try EventLoop(index: index, context: context)
                loops.append(loop)
                let listener = try Listener.open(address, backlog: configuration.backlog)
                address = listener.bound
                try loop.adopt(listener: listener.fd)
            }
        } catch {
            context.beginDraining(gracePeriod: 0)
            for loop in loops { loop.beginShutdown() }
            for loop in loops { runDetached(loop) }
            throw error
        }
        state.withLock { $0 = .running(loops) }
        for loop in loops { runDetached(loop) }
        return address
    }

    /// Stops accepting (closes the listeners), closes idle keep-alive connections, lets requests in flight
    /// finish and be written with `Connection: close`, and force-closes whatever remains after `gracePeriod`.
    /// Returns at once; `waitUntilStopped()` or `run()` wait for the end.
    ///
    /// The deadline holds even for a loop busy with a request that runs inline (CPU work of a handler): from
    /// this call on, every response written says `Connection: close`, and once the deadline has passed no
    /// loop dispatches another request. A handler that runs past the deadline still delays its own loop's exit
    /// until it returns, which the loop cannot interrupt; `waitUntilStopped(timeout:)` lets a process exit
    /// regardless.
    public func shutdown(gracePeriod: Duration = .seconds(10)) {
        let loops: [EventLoop] = state.withLock { state in
            guard case .running(let loops) = state else { return [] }
            state = .stopping
            return loops
        }
        guard !loops.isEmpty else { return }
        context.beginDraining(gracePeriod: ServerContext.nanoseconds(gracePeriod))
        for loop in loops { loop.beginShutdown() }
    }

    /// Whether a graceful shutdown has begun.
    public var isShuttingDown: Bool { context.isDraining }

    /// Blocks the calling thread until every event loop has exited (immediately if never started).
    public func waitUntilStopped() {
        stopped.wait()
    }

    /// Blocks the calling thread until every event loop has exited or `timeout` has passed.
    /// - Returns: whether every loop has exited.
    @discardableResult
    public func waitUntilStopped(timeout: Duration) -> Bool {
        stopped.wait(timeout: .now() + .nanoseconds(Int(clamping: ServerContext.nanoseconds(timeout)))) == .success
    }

    /// Suspends until every event loop has exited, without blocking a thread of the cooperative pool.
    public func run() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            stopped.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// The number of open connections across all loops.
    public var openConnectionCount: Int {
        context.openConnections.load(ordering: .relaxed)
    }

    private func runDetached(_ loop: EventLoop) {
        stopped.enter()
        let group = stopped
        DetachedThread.start(name: "http-loop-\(loop.index)") {
            loop.run()
            group.leave()
        }
    }

    /// Each connection needs a descriptor; the common soft limit of 1024 would cap the server far below
    /// `maxConnections`, so raise the soft limit as far as the hard limit allows.
    private static func raiseDescriptorLimit(toward connections: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 256)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
