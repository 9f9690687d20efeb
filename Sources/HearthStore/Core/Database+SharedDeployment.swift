/// What several processes sharing one database need from a connection, in the dialect of each
/// store: on SQLite (one process, one writer) each is nothing or the plain form, so callers
/// write one code path.
extension Database {
    /// Makes appends to one ordered log (identified by `lock`) take their keys in commit
    /// order, until this transaction ends: on PostgreSQL a transaction-scoped advisory lock
    /// (`pg_advisory_xact_lock`), held by a transaction from its first append until it commits
    /// or rolls back, so a key taken later belongs to a transaction that started appending after
    /// every earlier one had finished; on SQLite nothing, as its single writer already orders
    /// them. Call it before taking the key (the insert that draws the sequence).
    /// - Throws: ``StoreError``.
    public func serializeAppends(to lock: Int64) throws {
        guard dialect == .postgresql else { return }
        try execute("SELECT pg_advisory_xact_lock(?)", [lock])
    }

    /// Tells the processes listening on `channel` (``PostgresNotificationListener``) `payload`
    /// once this transaction commits, and nothing if it rolls back (PostgreSQL's `pg_notify`,
    /// delivered in commit order, at most 8000 bytes). Nothing on SQLite, whose database one
    /// process serves.
    /// - Throws: ``StoreError``.
    public func notify(channel: String, payload: String) throws {
        guard dialect == .postgresql else { return }
        try execute("SELECT pg_notify(?, ?)", [channel, payload])
    }
}
