import HearthStore
import Testing

/// `MarkScopedCache`: a value is served only under the mark it was read under, so a commit
/// anywhere (the marks' own tests are `ChangeMarkTests`) ends it; a store without marks and a
/// capacity of 0 keep nothing; the capacity is an exact bound.
struct MarkScopedCacheTests {
    private func withNotes(_ body: (DatabasePool) async throws -> Void) async throws {
        try await TemporaryDatabase.withPool { pool in
            try await pool.write { db in
                try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
                try db.execute("INSERT INTO notes (id, body) VALUES (1, 'first'), (2, 'second'), (3, 'third')")
            }
            // Each reader's first look moves the mark: look with all of them first.
            for _ in 0..<8 { _ = try await pool.changeMark() }
            try await body(pool)
        }
    }

    /// Reads note `id` through `cache` under the pool's mark now, counting reads in `reads`.
    private func note(
        _ id: Int, _ cache: MarkScopedCache<Int, String>, _ pool: DatabasePool, reads: inout Int, mark: ChangeMark?? = nil
    ) async throws -> String {
        let taken: ChangeMark?
        if let mark { taken = mark } else { taken = try await pool.changeMark() }
        var didRead = false
        let body = try await cache.value(for: id, at: taken) {
            didRead = true
            return try await pool.read { db in try db.scalar(String.self, "SELECT body FROM notes WHERE id = ?", [id]) } ?? "-"
        }
        if didRead { reads += 1 }
        return body
    }

    @Test func servesTheValueReadUnderTheSameMarkAndReadsAgainAfterACommit() async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: 10)
            var reads = 0
            #expect(try await note(1, cache, pool, reads: &reads) == "first")
            #expect(try await note(1, cache, pool, reads: &reads) == "first")
            #expect(try await note(2, cache, pool, reads: &reads) == "second")
            #expect(reads == 2)
            try await pool.write { db in try db.execute("UPDATE notes SET body = 'changed' WHERE id = 1") }
            #expect(try await note(1, cache, pool, reads: &reads) == "changed")
            #expect(reads == 3)
            #expect(cache.count == 1, "the later mark emptied the cache")
        }
    }

    @Test func aCommitOfAnotherConnectionEndsTheEntries() async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: 10)
            var reads = 0
            #expect(try await note(3, cache, pool, reads: &reads) == "third")
            let other = try DatabasePool(path: pool.path)
            defer { other.close() }
            try await other.write { db in try db.execute("UPDATE notes SET body = 'elsewhere' WHERE id = 3") }
            #expect(try await note(3, cache, pool, reads: &reads) == "elsewhere")
            #expect(reads == 2)
        }
    }

    @Test func aValueReadUnderAnEarlierMarkIsNotKept() async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: 10)
            var reads = 0
            let early = try await pool.changeMark()
            try await pool.write { db in try db.execute("UPDATE notes SET body = 'later' WHERE id = 2") }
            #expect(try await note(1, cache, pool, reads: &reads) == "first")
            // A slow request that took its mark before the commit finishes now.
            #expect(try await note(2, cache, pool, reads: &reads, mark: .some(early)) == "later")
            #expect(cache.count == 1, "kept under the later mark only")
            #expect(try await note(2, cache, pool, reads: &reads, mark: .some(early)) == "later")
            #expect(reads == 3, "never served under a mark it was not read under")
        }
    }

    /// Without a mark (a store that gives none), or with a capacity of 0, every lookup reads.
    @Test(arguments: [(10, false), (0, true)])
    func withoutAMarkOrRoomEveryLookupReads(capacity: Int, withMark: Bool) async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: capacity)
            var reads = 0
            for _ in 0..<3 {
                let body = try await note(1, cache, pool, reads: &reads, mark: withMark ? nil : .some(nil))
                #expect(body == "first")
            }
            #expect(reads == 3)
            #expect(cache.count == 0)
        }
    }

    @Test func holdsAtMostItsCapacityAndStartsAfreshPastIt() async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: 2)
            var reads = 0
            _ = try await note(1, cache, pool, reads: &reads)
            _ = try await note(2, cache, pool, reads: &reads)
            #expect(cache.count == 2)
            _ = try await note(1, cache, pool, reads: &reads)
            #expect(reads == 2, "both held at the capacity")
            _ = try await note(3, cache, pool, reads: &reads)
            #expect(cache.count == 1, "a third key started the cache afresh")
            _ = try await note(1, cache, pool, reads: &reads)
            #expect(reads == 4)
        }
    }

    @Test func holdsAtMostItsMaximumCostAndStartsAfreshPastIt() async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: 10, maxCost: 10)
            let mark = try await pool.changeMark()
            for (key, cost) in [(1, 4), (2, 6)] { _ = await cache.value(for: key, at: mark, cost: { _ in cost }) { "\(key)" } }
            #expect(cache.count == 2 && cache.heldCost == 10, "exactly at the bound")
            _ = await cache.value(for: 2, at: mark, cost: { _ in 6 }) { "again" }
            #expect(cache.count == 2 && cache.heldCost == 10, "a kept key is served, not counted twice")
            _ = await cache.value(for: 3, at: mark, cost: { _ in 1 }) { "3" }
            #expect(cache.count == 1 && cache.heldCost == 1, "one past the bound started the cache afresh")
            _ = await cache.value(for: 4, at: mark, cost: { _ in 11 }) { "too large" }
            #expect(cache.count == 1 && cache.heldCost == 1, "a value costing more than the bound alone is not kept")
            #expect(await cache.value(for: 3, at: mark) { "read" } == "3")
        }
    }

    @Test func aFailedReadKeepsNothing() async throws {
        try await withNotes { pool in
            let cache = MarkScopedCache<Int, String>(capacity: 10)
            let mark = try await pool.changeMark()
            struct Refused: Error {}
            await #expect(throws: Refused.self) { try await cache.value(for: 1, at: mark) { throw Refused() } }
            #expect(cache.count == 0)
            let read = await cache.value(for: 1, at: mark) { "read" }
            #expect(read == "read")
        }
    }
}
