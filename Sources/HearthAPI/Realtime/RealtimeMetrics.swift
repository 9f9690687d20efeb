import Synchronization

/// Live counts of the WebSocket endpoint, read by `/metrics`.
public final class RealtimeMetrics: Sendable {
    private let connections = Atomic<Int>(0)
    private let subscriptions = Atomic<Int>(0)
    /// Callers of ``waitForActiveSubscriptions(_:timeout:)``, by waiter number, with the count each awaits.
    private let waiters = Mutex<[Int: (count: Int, continuation: CheckedContinuation<Void, Never>)]>([:])
    private let nextWaiter = Atomic<Int>(0)

    /// Zeroed counts.
    public init() {}

    /// graphql-transport-ws connections currently open.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    /// Subscription operations currently streaming, over all connections.
    public var activeSubscriptions: Int { subscriptions.load(ordering: .relaxed) }

    /// Waits until exactly `count` subscriptions are streaming, or `timeout` has passed, and
    /// returns the count then. For test endpoints: a graphql-transport-ws `subscribe` has no
    /// reply, so this is how a client learns that its subscription is live (or ended).
    public func waitForActiveSubscriptions(_ count: Int, timeout: Duration) async -> Int {
        let waiter = nextWaiter.wrappingAdd(1, ordering: .relaxed).newValue
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    // Registered under the lock that `changed` takes after updating the count,
                    // so a change is either seen here or finds the waiter.
                    let isSatisfied = waiters.withLock { waiting in
                        if activeSubscriptions == count { return true }
                        waiting[waiter] = (count, continuation)
                        return false
                    }
                    if isSatisfied { continuation.resume() }
                }
            }
            group.addTask { [self] in
                try? await Task.sleep(for: timeout)
                release(waiter)
            }
            await group.next()
            group.cancelAll()
            release(waiter)
        }
        return activeSubscriptions
    }

    func connectionOpened() { connections.add(1, ordering: .relaxed) }

    func connectionClosed() { connections.subtract(1, ordering: .relaxed) }

    func subscriptionStarted() { changed(to: subscriptions.add(1, ordering: .relaxed).newValue) }

    func subscriptionEnded() { changed(to: subscriptions.subtract(1, ordering: .relaxed).newValue) }

    /// Resumes the waiters awaiting `count`.
    private func changed(to count: Int) {
        let ready = waiters.withLock { waiting -> [CheckedContinuation<Void, Never>] in
            guard !waiting.isEmpty else { return [] }
            let matching = waiting.filter { $0.value.count == count }.map(\.key)
            return matching.compactMap { waiting.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ready { continuation.resume() }
    }

    /// Resumes `waiter` if it is still waiting (its timeout passed, or it was satisfied).
    private func release(_ waiter: Int) {
        waiters.withLock { $0.removeValue(forKey: waiter) }?.continuation.resume()
    }
}
