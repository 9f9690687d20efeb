import HearthStore

/// The store `--database` names, opened: what the composition root needs of either beyond the
/// reader/writer seam services use (migrating, statistics, the shutdown checkpoint, closing).
enum OpenedStore: Sendable {
    /// An SQLite database file.
    case sqlite(DatabasePool)
    /// A PostgreSQL server.
    case postgres(PostgresStore)

    /// The store behind the seam services hold.
    var writer: any DatabaseWriter {
        switch self {
        case .sqlite(let pool): pool
        case .postgres(let store): store
        }
    }

    /// The SQLite pool, `nil` on PostgreSQL: for what only an SQLite file has.
    var sqlitePool: DatabasePool? {
        if case .sqlite(let pool) = self { return pool }
        return nil
    }

    /// The PostgreSQL store, `nil` on SQLite: for sharing the database with other instances.
    var postgresStore: PostgresStore? {
        if case .postgres(let store) = self { return store }
        return nil
    }

    /// Applies `migrator`'s pending migrations (its list must be this store's dialect's).
    func migrate(_ migrator: Migrator) throws -> [Migration] {
        switch self {
        case .sqlite(let pool): try migrator.migrate(pool)
        case .postgres(let store): try migrator.migrate(store)
        }
    }

    /// Connection statistics by kind, for metrics: SQLite's `reader` and `writer` groups,
    /// PostgreSQL's one `postgres` pool.
    var connectionStatistics: [(kind: String, statistics: ConnectionStatistics)] {
        switch self {
        case .sqlite(let pool):
            let statistics = pool.statistics
            return [("reader", statistics.readers), ("writer", statistics.writer)]
        case .postgres(let store):
            return [("postgres", store.statistics)]
        }
    }

    /// Before closing at shutdown: SQLite copies its write-ahead log into the database file;
    /// PostgreSQL has nothing to do.
    func checkpoint() throws {
        try sqlitePool?.checkpoint()
    }

    /// Closes the store's connections.
    func close() {
        switch self {
        case .sqlite(let pool): pool.close()
        case .postgres(let store): store.close()
        }
    }
}
