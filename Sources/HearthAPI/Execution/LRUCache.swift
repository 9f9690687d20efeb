import Synchronization

/// A bounded map that evicts the least recently used entries when full, safe to share between
/// event-loop threads. It is bounded twice: by entry count and by the sum of the entries'
/// costs (their estimated retained bytes), so that a few large entries cannot hold more memory
/// than many small ones would. Lookups and insertions are O(1) plus the evictions they cause:
/// entries live in an array threaded by a doubly linked recency list, and freed slots are reused.
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
        /// The sum of the costs of the entries held.
        public var cost: Int
    }

    /// The most entries held; 0 holds nothing.
    public let capacity: Int
    /// The largest sum of entry costs held; an entry costing more is not stored.
    public let maxCost: Int
    private let storage: Mutex<Storage>

    /// Creates an empty cache.
    /// - Parameters:
    ///   - capacity: The most entries it holds.
    ///   - maxCost: The largest sum of the costs given to `insert` it holds.
    public init(capacity: Int, maxCost: Int = .max) {
        precondition(capacity >= 0 && maxCost >= 0, "capacity and maxCost must not be negative")
        self.capacity = capacity
        self.maxCost = maxCost
        storage = Mutex(Storage(capacity: capacity, maxCost: maxCost))
    }

    /// The value for `key`, which becomes the most recently used; counts a hit or a miss.
    public func value(for key: Key) -> Value? {
        storage.withLock { $0.value(for: key) }
    }

    /// Stores `value` for `key` as the most recently used entry, evicting the least recently
    /// used ones until both bounds hold. An entry costing more than `maxCost` is not stored
    /// (and replaces nothing: an older value for `key` is dropped).
    /// - Parameter cost: What the entry counts against `maxCost`, such as its retained bytes.
    public func insert(_ value: Value, for key: Key, cost: Int = 0) {
        storage.withLock { $0.insert(value, for: key, cost: max(cost, 0)) }
    }

    /// The counters so far.
    public var statistics: Statistics {
        storage.withLock {
            Statistics(hits: $0.hits, misses: $0.misses, evictions: $0.evictions, count: $0.index.count, cost: $0.totalCost)
        }
    }

    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
    }

    /// A slot's neighbours in recency order, kept apart from its node so that reordering
    /// touches two integers, never the key and value (copying those retains and releases them).
    private struct Link {
        var newer: Int
        var older: Int
    }

    private struct Storage {
        static var none: Int { -1 }
        let capacity: Int
        let maxCost: Int
        /// Slots; `nil` once freed, so that an evicted entry's memory is released at once.
        var nodes: [Node?] = []
        /// The recency links, by slot (``Link``).
        var links: [Link] = []
        var freeSlots: [Int] = []
        var index: [Key: Int] = [:]
        /// The most and least recently used slots.
        var newest = Storage.none
        var oldest = Storage.none
        var totalCost = 0
        var hits = 0
        var misses = 0
        var evictions = 0

        init(capacity: Int, maxCost: Int) {
            self.capacity = capacity
            self.maxCost = maxCost
        }

        mutating func value(for key: Key) -> Value? {
            guard let slot = index[key] else {
                misses += 1
                return nil
            }
            hits += 1
            moveToFront(slot)
            return nodes[slot]?.value
        }

        mutating func insert(_ value: Value, for key: Key, cost: Int) {
            if let slot = index[key] { remove(slot) }
            guard capacity > 0, cost <= maxCost else { return }
            while index.count >= capacity || totalCost > maxCost - cost {
                remove(oldest)
                evictions += 1
            }
            let node = Node(key: key, value: value, cost: cost)
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                nodes[slot] = node
            } else {
                slot = nodes.count
                nodes.append(node)
                links.append(Link(newer: Storage.none, older: Storage.none))
            }
            index[key] = slot
            totalCost += cost
            pushFront(slot)
        }

        private mutating func remove(_ slot: Int) {
            guard let node = nodes[slot] else { return }
            unlink(slot)
            index[node.key] = nil
            totalCost -= node.cost
            nodes[slot] = nil
            freeSlots.append(slot)
        }

        private mutating func moveToFront(_ slot: Int) {
            guard slot != newest else { return }
            unlink(slot)
            pushFront(slot)
        }

        /// Takes the held `slot` out of the recency order.
        private mutating func unlink(_ slot: Int) {
            let link = links[slot]
            if link.newer != Storage.none { links[link.newer].older = link.older } else { newest = link.older }
            if link.older != Storage.none { links[link.older].newer = link.newer } else { oldest = link.newer }
            links[slot] = Link(newer: Storage.none, older: Storage.none)
        }

        private mutating func pushFront(_ slot: Int) {
            links[slot] = Link(newer: Storage.none, older: newest)
            if newest != Storage.none { links[newest].newer = slot }
            newest = slot
            if oldest == Storage.none { oldest = slot }
        }
    }
}
