import Synchronization

/// Live counts of the WebSocket endpoint, read by `/metrics`.
public final class RealtimeMetrics: Sendable {
    private let connections = Atomic<Int>(0)
    private let subscriptions = Atomic<Int>(0)

    /// Zeroed counts.
    public init() {}

    /// graphql-transport-ws connections currently open.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    /// Subscription operations currently streaming, over all connections.
    public var activeSubscriptions: Int { subscriptions.load(ordering: .relaxed) }

    func connectionOpened() { connections.add(1, ordering: .relaxed) }

    func connectionClosed() { connections.subtract(1, ordering: .relaxed) }

    func subscriptionStarted() { subscriptions.add(1, ordering: .relaxed) }

    func subscriptionEnded() { subscriptions.subtract(1, ordering: .relaxed) }
}
