/// Keys ordered by the time their buckets will have refilled completely, earliest first: a
/// binary min-heap, so ``RateLimiter`` finds the bucket to forget in O(log n) instead of
/// scanning every key under a flood.
///
/// Entries are never updated in place: a bucket that changes gets a new entry, and the old
/// one stays behind, stale, until it reaches the front (the limiter checks the bucket itself
/// before forgetting it) or the limiter rebuilds the queue.
struct RefillQueue: Sendable {
    /// One key and the time its bucket is full again.
    struct Entry: Sendable {
        /// The bucket's key.
        let key: String
        /// When the bucket was (or will be) full again, on the limiter's clock.
        let refilledAt: Double
    }

    private var heap: [Entry] = []

    /// An empty queue.
    init() {}

    /// A queue of `entries` in any order (heapified in O(n)).
    init(_ entries: [(key: String, refilledAt: Double)]) {
        heap = entries.map { Entry(key: $0.key, refilledAt: $0.refilledAt) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    /// Entries held, stale ones included.
    var count: Int { heap.count }

    /// The entry that refills earliest.
    var first: Entry? { heap.first }

    /// Adds an entry for `key`.
    mutating func insert(_ key: String, refilledAt: Double) {
        heap.append(Entry(key: key, refilledAt: refilledAt))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].refilledAt < heap[parent].refilledAt else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the entry that refills earliest; does nothing when empty.
    mutating func removeFirst() {
        guard !heap.isEmpty else { return }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let smaller = right < heap.count && heap[right].refilledAt < heap[left].refilledAt ? right : left
            guard heap[smaller].refilledAt < heap[parent].refilledAt else { return }
            heap.swapAt(parent, smaller)
            parent = smaller
        }
    }
}
