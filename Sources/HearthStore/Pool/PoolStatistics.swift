/// Counters of one group of connections (the readers, or the writer).
public struct ConnectionStatistics: Sendable, Hashable {
    /// Connections in the group.
    public var capacity: Int
    /// Connections currently lent to a caller.
    public var inUse: Int
    /// Callers currently waiting for a connection.
    public var waiting: Int
    /// Connections lent since the pool opened.
    public var acquisitions: Int
    /// Times a caller found every connection busy and had to wait.
    public var waits: Int
    /// Total time callers spent waiting, over completed waits.
    public var totalWaitTime: Duration
    /// Statements the group's connections executed since the pool opened, transaction
    /// control (`BEGIN`, `COMMIT`, the read snapshot's pin) included, scripts not: what a
    /// request path costs in statements, for tests and metrics.
    public var statements: Int
    /// Statements the group's connections compiled because their statement cache did not
    /// hold them (the first use of each SQL text, evictions, a statement still in use by an
    /// enclosing loop): a request path that keeps preparing has more distinct SQL texts than
    /// the cache holds.
    public var preparedStatements: Int

    /// ``totalWaitTime`` in seconds, the unit Prometheus expects.
    public var totalWaitSeconds: Double {
        let components = totalWaitTime.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A snapshot of a ``DatabasePool``'s counters, for metrics (`/metrics`).
public struct PoolStatistics: Sendable, Hashable {
    /// The reader connections.
    public var readers: ConnectionStatistics
    /// The single writer connection.
    public var writer: ConnectionStatistics
}
