import Dispatch
import Synchronization

/// A fixed set of connections lent to one caller at a time, first come first served.
///
/// Blocking callers park on a semaphore; async callers suspend on a continuation and
/// never block their thread. A returned connection goes straight to the oldest waiter,
/// so nobody starves. Cancelling an async waiter removes it from the queue, and so does the
/// acquire timeout when the group has one (a network store's pool; SQLite's waits for its
/// busy timeout instead).
///
/// Idle connections are lent last in, first out, and the group remembers since when each is
/// idle, so a network store can close the ones a past peak left unused
/// (``acquireIdle(atLeast:)``, ``releaseClosed(_:)``).
final class ConnectionGroup<Connection: Sendable>: Sendable {
    /// Where a blocked thread receives its connection, or the error that ends its wait.
    private final class Handoff: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Connection, any Error>?>(nil)
    }

    private enum WaiterKind {
        case blocking(id: UInt64, Handoff)
        case suspended(id: UInt64, CheckedContinuation<Connection, any Error>)
    }

    private struct Waiter {
        let kind: WaiterKind
        let since: ContinuousClock.Instant

        var id: UInt64 {
            switch kind {
            case .blocking(let id, _), .suspended(let id, _): id
            }
        }

        func deliver(_ result: Result<Connection, any Error>) {
            switch kind {
            case .blocking(_, let handoff):
                handoff.outcome.withLock { $0 = result }
                handoff.semaphore.signal()
            case .suspended(_, let continuation):
                continuation.resume(with: result)
            }
        }
    }

    /// What an acquisition found under the lock.
    private enum Attempt {
        case ready(Connection)
        case wait(id: UInt64, Handoff)
        case failed(any Error)
    }

    /// An idle connection and since when; `since` is nil for one its store closed, which sits
    /// below every open one (lent only when no open one is idle) and is never closed again.
    private struct Idle {
        let connection: Connection
        let since: ContinuousClock.Instant?
    }

    private struct State {
        /// Lent from the end: the most recently returned first.
        var idle: [Idle]
        var waiters: [Waiter] = []
        var inUse = 0
        var isClosed = false
        var nextWaiterID: UInt64 = 0
        var acquisitions = 0
        var waits = 0
        var totalWaitTime = Duration.zero

        /// Removes a waiter, counting the time it waited.
        mutating func removeWaiter(at index: Int) -> Waiter {
            let waiter = waiters.remove(at: index)
            totalWaitTime += waiter.since.duration(to: .now)
            return waiter
        }
    }

    private let state: Mutex<State>
    private let capacity: Int
    private let name: String
    /// How long a caller waits for a connection before failing with `.busy`; `nil` waits as long as it takes.
    private let acquireTimeout: Duration?
    /// Every connection of the group, lent or idle (for statistics that read each one).
    let connections: [Connection]

    /// - Parameter name: how errors call these connections ("reader", "writer").
    /// - Parameter acquireTimeout: how long a caller waits for a connection before failing with
    ///   ``StoreError`` `.busy`; `nil` waits as long as it takes.
    init(connections: [Connection], name: String, acquireTimeout: Duration? = nil) {
        self.connections = connections
        self.acquireTimeout = acquireTimeout
        self.state = Mutex(State(idle: connections.map { Idle(connection: $0, since: .now) }))
        self.capacity = connections.count
        self.name = name
    }

    private var timeoutError: StoreError {
        StoreError(extendedCode: .busy, message: "no \(name) connection became free within \(acquireTimeout ?? .zero) (the pool's acquire timeout)")
    }

    /// Removes the waiter `id` if it is still waiting and fails it with the timeout error;
    /// `false` when a connection or an error reached it first.
    private func expireWaiter(_ id: UInt64) -> Bool {
        let expired = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.removeWaiter(at: index)
        }
        expired?.deliver(.failure(timeoutError))
        return expired != nil
    }

    private static func deadline(after duration: Duration) -> DispatchTime {
        .now() + .nanoseconds(Int(clamping: duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000))
    }

    private var closedError: StoreError {
        StoreError(extendedCode: .misuse, message: "the database pool is closed; no \(name) connection is available")
    }

    /// Takes a connection, blocking the calling thread until one is free.
    ///
    /// - Throws: ``StoreError`` `.misuse` if the group is (or gets) closed.
    func acquire() throws -> Connection {
        try acquireBlocking(draining: false)
    }

    private func acquireBlocking(draining: Bool) throws -> Connection {
        let attempt = state.withLock { state -> Attempt in
            if state.isClosed && !draining {
                return .failed(closedError)
            }
            state.acquisitions += 1
            if let idle = state.idle.popLast() {
                state.inUse += 1
                return .ready(idle.connection)
            }
            let handoff = Handoff()
            state.nextWaiterID += 1
            state.waiters.append(Waiter(kind: .blocking(id: state.nextWaiterID, handoff), since: .now))
            state.waits += 1
            return .wait(id: state.nextWaiterID, handoff)
        }
        switch attempt {
        case .ready(let connection):
            return connection
        case .failed(let error):
            throw error
        case .wait(let id, let handoff):
            if let acquireTimeout, !draining {
                if handoff.semaphore.wait(timeout: Self.deadline(after: acquireTimeout)) == .timedOut {
                    // Expired here, or delivered meanwhile: either way an outcome is on its way.
                    _ = expireWaiter(id)
                    handoff.semaphore.wait()
                }
            } else {
                handoff.semaphore.wait()
            }
            // `deliver` stores the outcome before signalling, so it is there.
            guard let outcome = handoff.outcome.withLock({ $0 }) else { throw closedError }
            return try outcome.get()
        }
    }

    /// Takes an idle connection if there is one, without waiting; `nil` when all are lent.
    ///
    /// - Throws: ``StoreError`` `.misuse` if the group is closed.
    func acquireIfIdle() throws -> Connection? {
        try state.withLock { state throws(StoreError) -> Connection? in
            if state.isClosed { throw closedError }
            guard let idle = state.idle.popLast() else { return nil }
            state.acquisitions += 1
            state.inUse += 1
            return idle.connection
        }
    }

    /// Takes a connection, suspending (not blocking) until one is free.
    ///
    /// - Throws: ``StoreError`` `.misuse` if the group is (or gets) closed;
    ///   `CancellationError` if the task is cancelled while waiting.
    func acquire() async throws -> Connection {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Connection, any Error>) in
                let immediate = state.withLock { state -> Result<Connection, any Error>? in
                    if state.isClosed {
                        return .failure(closedError)
                    }
                    // Checked under the lock: a cancellation that lands after this point
                    // finds the waiter in the queue and removes it.
                    if Task.isCancelled {
                        return .failure(CancellationError())
                    }
                    state.acquisitions += 1
                    if let idle = state.idle.popLast() {
                        state.inUse += 1
                        return .success(idle.connection)
                    }
                    state.waiters.append(Waiter(kind: .suspended(id: id, continuation), since: .now))
                    state.waits += 1
                    return nil
                }
                if immediate == nil, let acquireTimeout {
                    DispatchQueue.global().asyncAfter(deadline: Self.deadline(after: acquireTimeout)) { [self] in
                        _ = expireWaiter(id)
                    }
                }
                if let immediate {
                    continuation.resume(with: immediate)
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.removeWaiter(at: index)
            }
            cancelled?.deliver(.failure(CancellationError()))
        }
    }

    /// Gives a connection back: to the oldest waiter if any, otherwise to the idle set, where it
    /// is lent next.
    func release(_ connection: Connection) {
        let waiter = state.withLock { state -> Waiter? in
            if !state.waiters.isEmpty {
                return state.removeWaiter(at: 0)
            }
            state.inUse -= 1
            state.idle.append(Idle(connection: connection, since: .now))
            return nil
        }
        waiter?.deliver(.success(connection))
    }

    /// Lends the open connection that has been idle longest, when it has been idle for at least
    /// `duration` and is not the one lent next (a pool keeps one warm connection); `nil`
    /// otherwise, or once the group is closed. Not counted as an acquisition: the store closes
    /// the connection and hands it back with ``releaseClosed(_:)``.
    func acquireIdle(atLeast duration: Duration) -> Connection? {
        state.withLock { state -> Connection? in
            guard !state.isClosed else { return nil }
            let now = ContinuousClock.now
            // Closed connections sit at the bottom, open ones above them from the oldest up.
            guard let index = state.idle.dropLast().firstIndex(where: { $0.since != nil }),
                  let since = state.idle[index].since, since.duration(to: now) >= duration else { return nil }
            state.inUse += 1
            return state.idle.remove(at: index).connection
        }
    }

    /// Gives back a connection its store has just closed: to the oldest waiter if any (the
    /// connection reopens for it), otherwise below every open idle connection, lent last.
    func releaseClosed(_ connection: Connection) {
        let waiter = state.withLock { state -> Waiter? in
            if !state.waiters.isEmpty {
                return state.removeWaiter(at: 0)
            }
            state.inUse -= 1
            state.idle.insert(Idle(connection: connection, since: nil), at: 0)
            return nil
        }
        waiter?.deliver(.success(connection))
    }

    /// Refuses new acquisitions, fails current waiters, then waits until every lent
    /// connection is back and returns them all. A second call returns an empty list.
    func close() -> [Connection] {
        let waiters = state.withLock { state -> [Waiter]? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        guard let waiters else { return [] }
        for waiter in waiters {
            waiter.deliver(.failure(closedError))
        }
        var connections: [Connection] = []
        while connections.count < capacity {
            do {
                connections.append(try acquireBlocking(draining: true))
            } catch {
                // Only closing fails waiters, it happened above, and draining ignores it.
                preconditionFailure("draining a closed connection group failed: \(error)")
            }
        }
        return connections
    }

    /// A snapshot of the counters.
    var statistics: ConnectionStatistics {
        state.withLock { state in
            ConnectionStatistics(
                capacity: capacity,
                inUse: state.inUse,
                waiting: state.waiters.count,
                acquisitions: state.acquisitions,
                waits: state.waits,
                totalWaitTime: state.totalWaitTime,
                statements: 0,
                preparedStatements: 0
            )
        }
    }
}
