/// Counters of a connection's prepared-statement cache.
public struct StatementCacheStatistics: Sendable, Hashable {
    /// Statements served from the cache without compiling SQL.
    public var hits: Int
    /// Statements compiled because they were not cached (or were busy).
    public var misses: Int
    /// Statements finalized to make room, least recently used first.
    public var evictions: Int
    /// Statements currently cached.
    public var count: Int
}

/// What a ``StatementCache`` holds: a prepared statement of one connection, SQLite's or PostgreSQL's.
protocol CachedStatement: AnyObject {
    /// The SQL text it was prepared from, as the caller wrote it.
    var sql: String { get }
    /// Whether a caller is stepping it now, so it cannot be lent again.
    var isInUse: Bool { get }
}

/// A bounded, least-recently-used map from SQL text to prepared statements.
///
/// Eviction scans for the oldest entry: with the small capacities a connection
/// needs (tens of statements) this is cheaper than maintaining a linked list.
struct StatementCache<Prepared: CachedStatement> {
    private struct Entry {
        let statement: Prepared
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [SQLTextKey: Entry] = [:]
    private var clock: UInt64 = 0
    private(set) var statistics = StatementCacheStatistics(hits: 0, misses: 0, evictions: 0, count: 0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The cached statement for `sql` if it is free, counting a hit; otherwise counts a miss.
    mutating func statement(for sql: String) -> Prepared? {
        clock += 1
        if let index = entries.index(forKey: SQLTextKey(sql)), !entries.values[index].statement.isInUse {
            entries.values[index].lastUse = clock
            statistics.hits += 1
            return entries.values[index].statement
        }
        statistics.misses += 1
        return nil
    }

    /// Whether `sql` already has a cached statement (busy or not).
    func contains(_ sql: String) -> Bool {
        entries[SQLTextKey(sql)] != nil
    }

    /// Caches a freshly prepared statement, evicting the least recently used when full; returns
    /// the evicted statement (SQLite finalizes it on release; PostgreSQL must deallocate it).
    @discardableResult
    mutating func insert(_ statement: Prepared) -> Prepared? {
        guard capacity > 0 else { return nil }
        var evicted: Prepared?
        if entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            evicted = entries.removeValue(forKey: oldest)?.statement
            statistics.evictions += 1
        }
        entries[SQLTextKey(statement.sql)] = Entry(statement: statement, lastUse: clock)
        statistics.count = entries.count
        return evicted
    }

    /// Drops the statement for `sql` and returns it, `nil` when none is cached (a PostgreSQL
    /// statement whose plan went stale must be deallocated and prepared anew).
    mutating func remove(_ sql: String) -> Prepared? {
        let removed = entries.removeValue(forKey: SQLTextKey(sql))?.statement
        statistics.count = entries.count
        return removed
    }

    /// Drops every statement (they finalize when released); used before closing.
    mutating func removeAll() {
        entries.removeAll()
        statistics.count = 0
    }
}
