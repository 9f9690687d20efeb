import Synchronization

/// A bounded map that evicts the least recently used entry when full, safe to share between
/// event-loop threads. Lookups and insertions are O(1): entries live in an array threaded by a
/// doubly linked recency list, and evicted slots are reused.
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Hit and miss counts since creation, for `/metrics`.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that found their key.
        public var hits: Int
        /// Lookups that did not.
        public var misses: Int
        /// Entries removed to make room.
        public var evictions: Int
        /// Entries currently held.
        public var count: Int
    }

    /// The most entries held; 0 holds nothing.
    public let capacity: Int
    private let storage: Mutex<Storage>

    /// Creates an empty cache holding at most `capacity` entries.
    public init(capacity: Int) {
        precondition(capacity >= 0, "capacity must not be negative")
        self.capacity = capacity
        storage = Mutex(Storage(capacity: capacity))
    }

    /// The value for `key`, which becomes the most recently used; counts a hit or a miss.
    public func value(for key: Key) -> Value? {
        storage.withLock { $0.value(for: key) }
    }

    /// Stores `value` for `key` as the most recently used entry, evicting the least recently
    /// used one when the cache is full.
    public func insert(_ value: Value, for key: Key) {
        storage.withLock { $0.insert(value, for: key) }
    }

    /// The counters so far.
    public var statistics: Statistics {
        storage.withLock { Statistics(hits: $0.hits, misses: $0.misses, evictions: $0.evictions, count: $0.index.count) }
    }

    private struct Node {
        var key: Key
        var value: Value
        var newer: Int
        var older: Int
    }

    private struct Storage {
        static var none: Int { -1 }
        let capacity: Int
        var nodes: [Node] = []
        var index: [Key: Int] = [:]
        /// The most and least recently used slots.
        var newest = Storage.none
        var oldest = Storage.none
        var hits = 0
        var misses = 0
        var evictions = 0

        init(capacity: Int) {
            self.capacity = capacity
        }

        mutating func value(for key: Key) -> Value? {
            guard let slot = index[key] else {
                misses += 1
                return nil
            }
            hits += 1
            moveToFront(slot)
            return nodes[slot].value
        }

        mutating func insert(_ value: Value, for key: Key) {
            guard capacity > 0 else { return }
            if let slot = index[key] {
                nodes[slot].value = value
                moveToFront(slot)
                return
            }
            let slot: Int
            if nodes.count < capacity {
                slot = nodes.count
                nodes.append(Node(key: key, value: value, newer: Storage.none, older: Storage.none))
            } else {
                slot = oldest
                unlink(slot)
                index[nodes[slot].key] = nil
                evictions += 1
                nodes[slot] = Node(key: key, value: value, newer: Storage.none, older: Storage.none)
            }
            index[key] = slot
            pushFront(slot)
        }

        private mutating func moveToFront(_ slot: Int) {
            guard slot != newest else { return }
            unlink(slot)
            pushFront(slot)
        }

        private mutating func unlink(_ slot: Int) {
            let (newer, older) = (nodes[slot].newer, nodes[slot].older)
            if newer != Storage.none { nodes[newer].older = older } else { newest = older }
            if older != Storage.none { nodes[older].newer = newer } else { oldest = newer }
            nodes[slot].newer = Storage.none
            nodes[slot].older = Storage.none
        }

        private mutating func pushFront(_ slot: Int) {
            nodes[slot].older = newest
            nodes[slot].newer = Storage.none
            if newest != Storage.none { nodes[newest].newer = slot }
            newest = slot
            if oldest == Storage.none { oldest = slot }
        }
    }
}
