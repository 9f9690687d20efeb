import Synchronization

/// Values read from the store, kept while the store's ``ChangeMark`` stays the same: while
/// nothing has committed to the database since a value was read, from this process or any other,
/// reading it again would give the same value, so the kept one is served instead.
///
/// ``CommitScopedCache`` follows this process's commits (`commitCount`, free to check); this
/// cache follows the store's mark, which also sees other processes' commits on the file (SQLite's
/// `PRAGMA data_version`: the `hearth` commands, a second server), at the cost of one statement
/// per check. So the caller takes the mark once per request (``DatabaseReader/changeMark()``)
/// and passes it to each lookup, and must take it **before** reading what it keeps:
///
/// ```swift
/// let mark = try await pool.changeMark()
/// let memberships = try await kept.value(for: userID, at: mark) { try await pool.read { … } }
/// ```
///
/// A value read after the mark may already hold a later commit; it is kept under the earlier
/// mark, and the next lookup, with a later mark, reads again. A store that gives no mark
/// (PostgreSQL, whose other processes' commits reach this one late) keeps nothing: every lookup
/// reads. Every entry belongs to the one mark the cache holds; a value read under a later mark
/// empties it, one read under an earlier mark is not kept. When ``capacity`` entries are held,
/// or a new value's cost (its estimated bytes) would take the sum past ``maxCost``, the cache
/// starts afresh (whatever a commit ends, a commit ends all of it, so there is no order of use
/// worth keeping); a value costing more than ``maxCost`` alone is not kept, and a capacity of 0
/// keeps nothing.
///
/// The lookups are `@inlinable`, as ``CommitScopedCache``'s are, so that callers in other modules
/// get code specialized for their key and value types.
public final class MarkScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var mark: ChangeMark?
        @usableFromInline var values: [Key: (value: Value, cost: Int)] = [:]
        /// The sum of the values' costs.
        @usableFromInline var cost = 0

        @usableFromInline init() {}
    }

    /// The most entries held at once.
    public let capacity: Int
    /// The largest sum of the entries' costs held.
    public let maxCost: Int
    @usableFromInline let state = Mutex(State())

    /// An empty cache holding at most `capacity` entries (0: none) whose costs sum to at most `maxCost`.
    public init(capacity: Int, maxCost: Int = .max) {
        self.capacity = max(capacity, 0)
        self.maxCost = max(maxCost, 0)
    }

    /// Whether the cache keeps anything under `mark`: a mark, and room for an entry.
    @inlinable
    func keeps(at mark: ChangeMark?) -> ChangeMark? {
        capacity > 0 ? mark : nil
    }

    /// The value for `key`: the one kept under `mark`, or what `read` returns (kept for the next
    /// lookup under the same mark).
    /// - Parameters:
    ///   - mark: taken before `read` could run; `nil` reads.
    ///   - cost: what a value read counts against ``maxCost``, such as its retained bytes.
    /// - Throws: What `read` throws.
    @inlinable
    public func value(
        for key: Key, at mark: ChangeMark?, cost: (Value) -> Int = { _ in 0 }, read: () async throws -> Value
    ) async rethrows -> Value {
        guard let mark = keeps(at: mark) else { return try await read() }
        if let kept = state.withLock({ $0.mark == mark ? $0.values[key]?.value : nil }) { return kept }
        let value = try await read()
        keep(value, cost: cost(value), for: key, readAfter: mark)
        return value
    }

    /// Keeps `value`, read after `mark` was taken, unless the cache already holds a later mark.
    @inlinable
    func keep(_ value: Value, cost: Int, for key: Key, readAfter mark: ChangeMark) {
        guard cost <= maxCost else { return }
        state.withLock { state in
            if let held = state.mark, held != mark {
                guard held.value < mark.value else { return }
                state.values.removeAll(keepingCapacity: true)
                state.cost = 0
            }
            state.mark = mark
            let replaced = state.values[key]?.cost
            let others = state.cost - (replaced ?? 0)
            if (replaced == nil && state.values.count >= capacity) || others > maxCost - cost {
                state.values.removeAll(keepingCapacity: true)
                state.cost = 0
            } else {
                state.cost = others
            }
            state.values[key] = (value, cost)
            state.cost += cost
        }
    }

    /// The sum of the held values' costs (for tests).
    public var heldCost: Int {
        state.withLock { $0.cost }
    }

    /// How many values are held now (for tests).
    public var count: Int {
        state.withLock { $0.values.count }
    }
}
