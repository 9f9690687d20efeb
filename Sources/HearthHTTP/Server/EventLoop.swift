import CSystem
import Glibc
import Synchronization

/// One epoll event loop on its own thread: a listener, the connections it accepted, a wake-up eventfd for
/// work handed over from other threads, and a periodic scan for expired deadlines.
///
/// Thread confinement: every mutable stored property except `inbox` and `threadID` is read and written only on
/// the loop's own thread (inside `run()` and what it calls, or before the thread starts). Other threads reach
/// the loop only through `deliver(_:to:sequence:)`, `execute(_:)` and `beginShutdown()`, which go through the
/// `Mutex`-protected `inbox` plus an eventfd write. That is what makes the `@unchecked Sendable` sound.
///
/// Shutdown: the deadline lives in the shared `ServerContext`, which the loop consults between events and
/// connections consult before each dispatch, so a loop held up by a long request still ends on time (see
/// `closeEverythingIfShutdownIsOver()`); the eventfd stays open until `deinit`, so responders finishing after
/// the loop has ended write to no reused descriptor.
final class EventLoop: @unchecked Sendable {
    static let listenerToken: UInt64 = 0
    static let wakeToken: UInt64 = 1
    static let firstConnectionToken = 2

    private enum Job: Sendable {
        case respond(ConnectionToken, UInt64, ResponsePart)
        case webSocket(ConnectionToken, WebSocketCommand)
        case run(@Sendable () -> Void)
        case beginShutdown
    }

    let index: Int
    let context: ServerContext
    private let epollFD: Int32
    private let wakeFD: Int32
    private let threadID = Atomic<UInt>(0)
    private let inbox = Mutex<[Job]>([])

    private var listenerFD: Int32 = -1
    private var listenerRegistered = false
    private var spareFD: Int32 = -1
    private var acceptResumesAt: UInt64?
    private var connections: [Connection?] = []
    private var generations: [UInt32] = []
    private var freeSlots: [Int] = []
    private var openCount = 0
    private var readyConnections: [Connection] = []
    private var nextTimerScan: UInt64 = 0
    /// Set once this loop has closed its listener and idle connections for the shutdown.
    private var hasStartedDraining = false
    /// The loop's notion of now (monotonic nanoseconds), refreshed after every epoll wait.
    private(set) var now: UInt64 = csystem_monotonic_ns()
    private(set) var date = HTTPDateCache()
    private(set) var requestIDs: RequestIDGenerator
    /// Reused for every read; bytes a connection cannot consume yet are copied to its own buffer.
    let readBuffer: UnsafeMutableRawBufferPointer
    private let readyEvents = UnsafeMutablePointer<csystem_epoll_ready>.allocate(capacity: 256)
    /// zlib streams shared by this loop's WebSocket connections that negotiated no context takeover.
    let zlibPool = WebSocketZlibPool()
    /// Sockets closed after their last response, read until the client closes its side.
    private let lingering: LingeringCloses

    init(index: Int, context: ServerContext) throws(SystemError) {
        self.index = index
        self.context = context
        requestIDs = RequestIDGenerator(loopIndex: index)
        let epoll = Int32(try blockingSyscall("epoll_create1") { Int(csystem_epoll_create()) })
        let wake: Int32
        do throws(SystemError) {
            wake = Int32(try blockingSyscall("eventfd") { Int(csystem_eventfd()) })
        } catch {
            closeDescriptor(epoll)
            throw error
        }
        do throws(SystemError) {
            try blockingSyscall("epoll_ctl") {
                Int(csystem_epoll_ctl(epoll, EPOLL_CTL_ADD, wake, CSYSTEM_EPOLLIN, EventLoop.wakeToken))
            }
        } catch {
            closeDescriptor(wake)
            closeDescriptor(epoll)
            throw error
        }
        epollFD = epoll
        wakeFD = wake
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        readBuffer = buffer
        lingering = LingeringCloses(epollFD: epoll, context: context, buffer: buffer)
        spareFD = EventLoop.openSpareDescriptor()
        date.refresh()
    }

    deinit {
        closeDescriptor(wakeFD)
        readBuffer.deallocate()
        readyEvents.deallocate()
    }

    /// Takes ownership of a listening socket; called before the loop's thread starts.
    func adopt(listener fd: Int32) throws(SystemError) {
        listenerFD = fd
        try registerListener()
    }

    var isCurrentThread: Bool {
        pthread_equal(pthread_self(), threadID.load(ordering: .relaxed)) != 0
    }

    // MARK: - Cross-thread entry points

    /// Hands a response part to the connection: inline on the loop thread, through the inbox otherwise.
    func deliver(_ part: ResponsePart, to token: ConnectionToken, sequence: UInt64) {
        if isCurrentThread {
            if let connection = connection(for: token) { connection.receive(part, sequence: sequence) } else { part.dropped() }
        } else {
            enqueue(.respond(token, sequence, part))
        }
    }

    /// Hands a command to an upgraded connection: inline on the loop thread, through the inbox otherwise.
    func deliver(_ command: WebSocketCommand, to token: ConnectionToken) {
        if isCurrentThread {
            connection(for: token)?.receive(command)
        } else {
            enqueue(.webSocket(token, command))
        }
    }

    /// Runs `work` on the loop's thread: at once when called there, otherwise through the inbox (in order with
    /// the other jobs handed over, one wake-up per batch).
    func execute(_ work: @escaping @Sendable () -> Void) {
        if isCurrentThread {
            work()
        } else {
            enqueue(.run(work))
        }
    }

    /// Wakes the loop to act on the shutdown begun in the context: stop accepting, close idle connections, let
    /// the others finish until the deadline.
    func beginShutdown() {
        enqueue(.beginShutdown)
    }

    /// Whether the server is shutting down: responses say `Connection: close`, idle connections close.
    var isDraining: Bool { context.isDraining }

    private func enqueue(_ job: Job) {
        let wasEmpty = inbox.withLock { jobs in
            jobs.append(job)
            return jobs.count == 1
        }
        // One wake-up per batch: the loop drains the whole inbox when it wakes.
        if wasEmpty {
            var one: UInt64 = 1
            _ = try? syscall("write") { write(wakeFD, &one, 8) }
        }
    }

    // MARK: - The loop

    /// Runs until shutdown completes, then releases the loop's descriptors.
    func run() {
        threadID.store(pthread_self(), ordering: .relaxed)
        now = csystem_monotonic_ns()
        nextTimerScan = now &+ context.timerTick
        while !(hasStartedDraining && openCount == 0 && lingering.isEmpty) {
            let count: Int
            do throws(SystemError) {
                count = switch try syscall("epoll_wait", { Int(csystem_epoll_wait(epollFD, readyEvents, 256, waitTimeout())) }) {
                case .done(let value): value
                case .wouldBlock: 0
                }
            } catch {
                report(.error, "epoll_wait failed", error)
                break
            }
            now = csystem_monotonic_ns()
            date.refresh()
            for eventIndex in 0..<count {
                // A long request may have held the loop past the end of a shutdown: then nothing more is handled.
                if closeEverythingIfShutdownIsOver() { break }
                let event = readyEvents[eventIndex]
                switch event.token {
                case EventLoop.listenerToken: acceptConnections()
                case EventLoop.wakeToken: drainInbox()
                case let token where token & LingeringCloses.tokenFlag != 0: lingering.handle(token: token)
                default: connection(for: ConnectionToken(epollToken: event.token))?.handle(events: event.events)
                }
            }
            pumpReadyConnections()
            if now >= nextTimerScan {
                scanTimers()
                nextTimerScan = now &+ context.timerTick
            }
        }
        lingering.closeAll()
        closeListener()
        if spareFD >= 0 { closeDescriptor(spareFD) }
        closeDescriptor(epollFD)
    }

    private func waitTimeout() -> Int32 {
        guard openCount > 0 || hasStartedDraining || acceptResumesAt != nil || !lingering.isEmpty else { return -1 }
        let wait = nextTimerScan > now ? nextTimerScan - now : 0
        return Int32((wait + 999_999) / 1_000_000)
    }

    private func drainInbox() {
        var counter: UInt64 = 0
        _ = try? syscall("read") { read(wakeFD, &counter, 8) }
        let jobs = inbox.withLock { jobs in
            let taken = jobs
            jobs.removeAll(keepingCapacity: true)
            return taken
        }
        for job in jobs {
            switch job {
            case let .respond(token, sequence, part):
                if let connection = connection(for: token) { connection.receive(part, sequence: sequence) } else { part.dropped() }
            case let .webSocket(token, command):
                connection(for: token)?.receive(command)
            case .run(let work):
                work()
            case .beginShutdown:
                startDraining()
            }
        }
    }

    /// Connections that got a response outside their own processing continue here, after the current event.
    func markReady(_ connection: Connection) {
        readyConnections.append(connection)
    }

    private func pumpReadyConnections() {
        while !readyConnections.isEmpty {
            let batch = readyConnections
            readyConnections.removeAll(keepingCapacity: true)
            for connection in batch { connection.pump() }
        }
    }

    private func scanTimers() {
        if closeEverythingIfShutdownIsOver() { return }
        if let resumeAt = acceptResumesAt, now >= resumeAt {
            acceptResumesAt = nil
            do throws(SystemError) { try registerListener() } catch { report(.error, "cannot resume accepting", error) }
        }
        lingering.expire(now: now)
        context.flushRefusalReports(now: now, loop: index)
        for case let connection? in connections { connection.checkTimers(now: now) }
        pumpReadyConnections()
    }

    /// Acts on the shutdown begun in the context: adopts the connections still waiting in the listener's backlog
    /// (closing the listener would reset them), stops accepting, and lets every connection answer what it has
    /// received already; connections with nothing to answer close, upgraded ones start their closing handshake.
    private func startDraining() {
        guard context.isDraining, !hasStartedDraining else { return }
        hasStartedDraining = true
        acceptResumesAt = nil
        if listenerRegistered { acceptConnections() }
        closeListener()
        for case let connection? in connections { connection.startDraining() }
        pumpReadyConnections()
    }

    /// Once the shutdown's deadline has passed, closes every connection and lingering socket.
    /// - Returns: whether it has passed, so the caller handles no further events.
    private func closeEverythingIfShutdownIsOver() -> Bool {
        guard context.isPastDrainDeadline else { return false }
        startDraining()
        for case let connection? in connections { connection.close() }
        lingering.closeAll()
        return true
    }

    // MARK: - Accepting

    private func registerListener() throws(SystemError) {
        guard listenerFD >= 0, !listenerRegistered else { return }
        try blockingSyscall("epoll_ctl") {
            Int(csystem_epoll_ctl(epollFD, EPOLL_CTL_ADD, listenerFD, CSYSTEM_EPOLLIN, EventLoop.listenerToken))
        }
        listenerRegistered = true
    }

    private func closeListener() {
        guard listenerFD >= 0 else { return }
        closeDescriptor(listenerFD)
        listenerFD = -1
        listenerRegistered = false
    }

    private func acceptConnections() {
        // A bounded batch, so one busy listener cannot starve the loop's connections.
        for _ in 0..<64 where listenerFD >= 0 && listenerRegistered {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            do throws(SystemError) {
                switch try syscall("accept4", { Int(csystem_accept(listenerFD, &storage, &length)) }) {
                case .wouldBlock: return
                case .done(let fd): admit(Int32(fd), address: SocketAddress(storage))
                }
            } catch {
                switch error.code {
                case ECONNABORTED, EPROTO, EPERM:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    shedWithoutDescriptors(error)
                    return
                default:
                    report(.error, "accept failed", error)
                    pauseAccepting()
                    return
                }
            }
        }
    }

    /// Out of descriptors, the pending connection would stay in the backlog and wake us forever. Release the
    /// spare descriptor, accept the connection with it, tell the client 503 and close it, then take the spare
    /// back. Without a spare, stop watching the listener for a tick. There is no descriptor to linger with, so
    /// the close reads what has arrived and closes at once (see `LingeringCloses.closeAfterDraining`).
    private func shedWithoutDescriptors(_ error: SystemError) {
        if spareFD < 0 { spareFD = EventLoop.openSpareDescriptor() }
        guard spareFD >= 0 else {
            pauseAccepting()
            return
        }
        closeDescriptor(spareFD)
        spareFD = -1
        let fd = csystem_accept(listenerFD, nil, nil)
        if fd >= 0 {
            EventLoop.sendRefusal(fd)
            LingeringCloses.closeAfterDraining(fd, buffer: readBuffer)
            context.reportRefusal(.outOfDescriptors, now: now, error: error, loop: index)
        }
        spareFD = EventLoop.openSpareDescriptor()
        if spareFD < 0 { pauseAccepting() }
    }

    private func pauseAccepting() {
        guard listenerRegistered else { return }
        _ = csystem_epoll_ctl(epollFD, EPOLL_CTL_DEL, listenerFD, 0, 0)
        listenerRegistered = false
        acceptResumesAt = now &+ context.timerTick
    }

    private func admit(_ fd: Int32, address: SocketAddress) {
        let open = context.openConnections.add(1, ordering: .relaxed).newValue
        guard open <= context.configuration.maxConnections else {
            context.openConnections.subtract(1, ordering: .relaxed)
            EventLoop.sendRefusal(fd)
            lingering.begin(fd, registered: false, now: now)
            context.reportRefusal(.maxConnections, now: now, error: nil, loop: index)
            return
        }
        try? Listener.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        let slot = freeSlots.popLast() ?? {
            connections.append(nil)
            generations.append(0)
            return connections.count - 1
        }()
        // 31 bits, so a connection's epoll token never sets `LingeringCloses.tokenFlag`.
        generations[slot] = (generations[slot] &+ 1) & 0x7FFF_FFFF
        let token = ConnectionToken(slot: slot, generation: generations[slot])
        let connection = Connection(fd: fd, token: token, peer: address, loop: self)
        do throws(SystemError) {
            let events = CSYSTEM_EPOLLIN | CSYSTEM_EPOLLOUT | CSYSTEM_EPOLLRDHUP | CSYSTEM_EPOLLET
            try blockingSyscall("epoll_ctl") { Int(csystem_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, events, token.epollToken)) }
        } catch {
            report(.error, "cannot watch an accepted connection", error)
            closeDescriptor(fd)
            context.openConnections.subtract(1, ordering: .relaxed)
            freeSlots.append(slot)
            return
        }
        connections[slot] = connection
        openCount += 1
        context.observer?.connectionOpened()
    }

    /// One non-blocking send of a complete 503 on a new socket, whose empty send buffer takes it whole.
    private static func sendRefusal(_ fd: Int32) {
        EventLoop.refusal.withUnsafeBytes { bytes in _ = csystem_send(fd, bytes.baseAddress, bytes.count) }
    }

    private static let refusal: [UInt8] = {
        let body = "too many connections, retry later\n"
        return Array(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\nRetry-After: 1\r\n\r\n" + body).utf8)
    }()

    private static func openSpareDescriptor() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    // MARK: - Connections

    private func connection(for token: ConnectionToken) -> Connection? {
        guard token.slot >= 0, token.slot < connections.count, let connection = connections[token.slot],
            connection.token == token
        else { return nil }
        return connection
    }

    /// Takes over the socket of a connection that closes after its last response (see `LingeringCloses`).
    func linger(_ fd: Int32) {
        lingering.begin(fd, registered: true, now: now)
    }

    /// Forgets a connection that has closed its descriptor.
    func remove(_ connection: Connection) {
        guard self.connection(for: connection.token) === connection else { return }
        connections[connection.token.slot] = nil
        freeSlots.append(connection.token.slot)
        openCount -= 1
        context.openConnections.subtract(1, ordering: .relaxed)
        context.observer?.connectionClosed()
    }

    func nextRequestID() -> String {
        requestIDs.next()
    }

    func report(_ level: HTTPServerEvent.Level, _ message: String, _ error: SystemError? = nil, remote: String? = nil) {
        var metadata = ["loop": "\(index)"]
        if let error { metadata["error"] = error.description }
        if let remote { metadata["remote.address"] = remote }
        context.observer?.serverEvent(HTTPServerEvent(level: level, message: message, metadata: metadata))
    }
}
