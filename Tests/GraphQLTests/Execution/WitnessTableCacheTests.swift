import Dispatch
import Testing
@testable import GraphQL

struct WitnessTableCacheTests {
    @Test func findsWhatWasInsertedAndNothingElse() {
        let cache = WitnessTableCache(slotCount: 8)
        #expect(cache.table(for: 0x1000) == nil)
        cache.insert(0xA, for: 0x1000)
        cache.insert(0xB, for: 0x2000)
        #expect(cache.table(for: 0x1000) == 0xA)
        #expect(cache.table(for: 0x2000) == 0xB)
        #expect(cache.table(for: 0x3000) == nil)
        cache.insert(0xC, for: 0x1000)  // already there: the first table stays
        #expect(cache.table(for: 0x1000) == 0xA)
    }

    /// Keys that start at the same slot probe on; a full table remembers nothing more and still
    /// answers for what it holds.
    @Test func collidingKeysProbeOnAndAFullTableStopsRemembering() {
        let cache = WitnessTableCache(slotCount: 4)
        let keys: [UInt] = [0x10_0000, 0x20_0000, 0x30_0000, 0x40_0000, 0x50_0000]
        for (index, key) in keys.enumerated() { cache.insert(UInt(index + 1), for: key) }
        for (index, key) in keys.prefix(4).enumerated() { #expect(cache.table(for: key) == UInt(index + 1)) }
        #expect(cache.table(for: keys[4]) == nil)
    }

    @Test func threadsInsertingAndReadingAtOnceFindEveryTable() {
        let cache = WitnessTableCache(slotCount: 1024)  // room for a copy of each key per thread
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for key in 1...100 {
                let metadata = UInt(key) << 8
                cache.insert(metadata + 1, for: metadata)
                #expect(cache.table(for: metadata) == metadata + 1, "thread \(thread)")
            }
        }
        for key in 1...100 { #expect(cache.table(for: UInt(key) << 8) == (UInt(key) << 8) + 1) }
    }
}
