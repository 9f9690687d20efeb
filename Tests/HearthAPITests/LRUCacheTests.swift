import HearthAPI
import Testing
import TestFixtures

/// `LRUCache` against a plain model (a list in recency order): after every one of thousands of
/// random lookups and insertions, each key holds what the model says, evictions take the least
/// recently used entries first, and both bounds (entries, cost) hold.
@Suite struct LRUCacheTests {
    /// The model: keys newest first, with their values and costs.
    private struct Model {
        var entries: [(key: Int, value: Int, cost: Int)] = []
        let capacity: Int, maxCost: Int
        var hits = 0, misses = 0, evictions = 0

        mutating func value(for key: Int) -> Int? {
            guard let index = entries.firstIndex(where: { $0.key == key }) else { misses += 1; return nil }
            hits += 1
            let entry = entries.remove(at: index)
            entries.insert(entry, at: 0)
            return entry.value
        }

        mutating func insert(_ value: Int, for key: Int, cost: Int) {
            entries.removeAll { $0.key == key }
            guard capacity > 0, cost <= maxCost else { return }
            while entries.count >= capacity || entries.reduce(0, { $0 + $1.cost }) > maxCost - cost {
                entries.removeLast()
                evictions += 1
            }
            entries.insert((key, value, cost), at: 0)
        }
    }

    @Test(arguments: [(capacity: 1, maxCost: Int.max), (8, Int.max), (8, 40), (0, 100), (32, 25)])
    func behavesLikeAListInRecencyOrder(capacity: Int, maxCost: Int) {
        let cache = LRUCache<Int, Int>(capacity: capacity, maxCost: maxCost)
        var model = Model(capacity: capacity, maxCost: maxCost)
        var random = SeededRandom(seed: SeededRandom.seed(fallback: UInt64(capacity * 1_000 + min(maxCost, 999))))
        for step in 0..<5_000 {
            let key = Int(random.next() % 24)
            if random.next() % 3 == 0 {
                let value = step, cost = Int(random.next() % 12)
                cache.insert(value, for: key, cost: cost)
                model.insert(value, for: key, cost: cost)
            } else {
                #expect(cache.value(for: key) == model.value(for: key), "step \(step), key \(key)")
            }
            let statistics = cache.statistics
            #expect(statistics.count == model.entries.count && statistics.evictions == model.evictions, "step \(step)")
            #expect(statistics.cost == model.entries.reduce(0) { $0 + $1.cost } && statistics.cost <= maxCost)
        }
        #expect(cache.statistics.hits == model.hits && cache.statistics.misses == model.misses)
    }
}
