import Synchronization

/// Witness tables by the type metadata they were found for (both as addresses: they live as long
/// as the process), read without a lock: ``ResolvableCast`` looks one up for every object the
/// executor completes, on every event loop at once, and the dictionary behind a `Mutex` it
/// replaces cost about 130 instructions more per object (hashing, the lock) and a cache line the
/// loops took from each other.
///
/// An insert-only open-addressing table of a fixed number of slots. A slot's key is 0 while free,
/// ``claimed`` while its inserter writes the table, then the metadata address for good; the key is
/// stored with release ordering after the table, and read with acquire ordering before it, so a
/// reader that finds the key finds its table. Two threads inserting the same type at once may take
/// two slots (a lookup finds the first); once every slot is taken, further types are not
/// remembered and their callers cast afresh.
final class WitnessTableCache: @unchecked Sendable {
    // @unchecked: the slots are atomics, allocated in `init` and freed in `deinit` only.
    private let keys: UnsafeMutablePointer<Atomic<UInt>>
    private let tables: UnsafeMutablePointer<Atomic<UInt>>
    private let slotCount: Int

    /// A slot's key while its table is being written (no metadata lives at address 1).
    private static let claimed: UInt = 1

    /// A table of `slotCount` slots, a power of two: more than the conforming types a process uses.
    init(slotCount: Int) {
        precondition(slotCount > 0 && slotCount & (slotCount - 1) == 0, "the slot count is a power of two")
        self.slotCount = slotCount
        keys = .allocate(capacity: slotCount)
        tables = .allocate(capacity: slotCount)
        for slot in 0..<slotCount {
            (keys + slot).initialize(to: Atomic(0))
            (tables + slot).initialize(to: Atomic(0))
        }
    }

    deinit {
        keys.deinitialize(count: slotCount)
        tables.deinitialize(count: slotCount)
        keys.deallocate()
        tables.deallocate()
    }

    /// The table remembered for `metadata`, `nil` when none is.
    func table(for metadata: UInt) -> UInt? {
        var slot = firstSlot(of: metadata)
        for _ in 0..<slotCount {
            let key = keys[slot].load(ordering: .acquiring)
            if key == metadata { return tables[slot].load(ordering: .relaxed) }
            if key == 0 { return nil }
            slot = (slot + 1) & (slotCount - 1)
        }
        return nil
    }

    /// Remembers `table` for `metadata` (neither 0 nor 1), unless every slot is taken.
    func insert(_ table: UInt, for metadata: UInt) {
        var slot = firstSlot(of: metadata)
        for _ in 0..<slotCount {
            let (claimed, key) = keys[slot].compareExchange(expected: 0, desired: Self.claimed, ordering: .relaxed)
            if claimed {
                tables[slot].store(table, ordering: .relaxed)
                keys[slot].store(metadata, ordering: .releasing)
                return
            }
            if key == metadata { return }
            slot = (slot + 1) & (slotCount - 1)
        }
    }

    /// Where the search for `metadata` starts: metadata addresses are aligned, so their low bits
    /// are dropped.
    private func firstSlot(of metadata: UInt) -> Int {
        Int(truncatingIfNeeded: (metadata >> 4) ^ (metadata >> 12)) & (slotCount - 1)
    }
}
