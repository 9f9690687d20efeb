import HearthStore
import Synchronization
import Testing

struct CommitScopedCacheTests {
    private func withNotes(_ body: (DatabasePool, CommitScopedCache<Int, String?>) async throws -> Void) async throws {
        try await TemporaryDatabase.withPool { pool in
            try await pool.write { db in
                try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
                try db.execute("INSERT INTO notes (id, body) VALUES (1, 'first')")
            }
            try await body(pool, CommitScopedCache(pool: pool))
        }
    }

    private static func body(_ id: Int) -> @Sendable (Database) throws -> String? {
        { db in try db.scalar(String.self, "SELECT body FROM notes WHERE id = ?", [id]) }
    }

    @Test func servesReadValuesUntilAWriteCommits() async throws {
        try await withNotes { pool, cache in
            var reads = 0
            let counting: (Database) throws -> String? = { db in
                reads += 1
                return try Self.body(1)(db)
            }
            #expect(try cache.valueWithoutWaiting(for: 1, read: counting) == "first")
            #expect(try cache.valueWithoutWaiting(for: 1, read: counting) == "first")
            #expect(reads == 1)
            try pool.write { db in try db.execute("UPDATE notes SET body = 'second' WHERE id = 1") }
            #expect(try cache.valueWithoutWaiting(for: 1, read: counting) == "second")
            #expect(reads == 2)
        }
    }

    @Test func anyCommitEndsEveryEntryEvenOfAnotherTable() async throws {
        try await withNotes { pool, cache in
            #expect(try await cache.value(for: 1, read: Self.body(1)) == "first")
            #expect(cache.count == 1)
            try await pool.write { db in try db.execute("CREATE TABLE other (x)") }
            #expect(try await cache.value(for: 2, read: Self.body(2)) == nil)
            #expect(cache.count == 1)
        }
    }

    @Test func cachesAbsentRowsToo() async throws {
        try await withNotes { _, cache in
            let first = try cache.valueWithoutWaiting(for: 9, read: Self.body(9))
            #expect(first == .some(nil))
            let second = try cache.valueWithoutWaiting(for: 9) { _ in
                Issue.record("read again")
                return nil
            }
            #expect(second == .some(nil))
        }
    }

    @Test func aBatchReadsOnlyTheKeysNotCachedTogetherAndCachesThem() async throws {
        try await withNotes { pool, cache in
            try await pool.write { db in try db.execute("INSERT INTO notes (id, body) VALUES (2, 'second'), (3, 'third')") }
            #expect(try await cache.value(for: 1, read: Self.body(1)) == "first")
            #expect(cache.cachedValue(for: 1) == "first" && cache.cachedValue(for: 2) == nil)
            let asked = Mutex<[[Int]]>([])
            let read: @Sendable ([Int], Database) throws -> [Int: String?] = { ids, db in
                asked.withLock { $0.append(ids.sorted()) }
                var bodies = Dictionary(uniqueKeysWithValues: ids.map { ($0, String?.none) })
                let list = ids.map { _ in "?" }.joined(separator: ", ")
                try db.forEachRow("SELECT id, body FROM notes WHERE id IN (\(list))", StatementArguments(ids.map { $0 })) { row in
                    bodies[try row["id"]] = try row["body"] as String
                }
                return bodies
            }
            let values = try await cache.values(for: [1, 2, 3, 9, 2], read: read)
            #expect(values == [1: "first", 2: "second", 3: "third", 9: String?.none])
            #expect(asked.withLock { $0 } == [[2, 3, 9]], "one read, of the keys not cached, each once")
            #expect(try await cache.values(for: [2, 9], read: read) == [2: "second", 9: String?.none])
            #expect(asked.withLock { $0 }.count == 1, "all cached now, absent rows too")
            try await pool.write { db in try db.execute("UPDATE notes SET body = 'changed' WHERE id = 2") }
            #expect(try await cache.values(for: [2], read: read) == [2: "changed"], "until a commit")
        }
    }

    @Test func doesNotKeepAValueReadAcrossACommit() async throws {
        try await withNotes { pool, cache in
            // The write commits while the read runs: the value read may be stale, so it is not kept.
            _ = try cache.valueWithoutWaiting(for: 1) { db in
                try pool.writeFromAnotherThread { try $0.execute("UPDATE notes SET body = 'second' WHERE id = 1") }
                return try Self.body(1)(db)
            }
            #expect(cache.count == 0)
            #expect(try cache.valueWithoutWaiting(for: 1, read: Self.body(1)) == "second")
        }
    }

    /// While a commit may be in flight (a write without a transaction around it, which may commit
    /// at any point), another read may already see what it wrote: the cache serves and keeps nothing.
    @Test func whileACommitIsInFlightNothingIsServedOrKept() async throws {
        try await withNotes { pool, cache in
            #expect(try await cache.value(for: 1, read: Self.body(1)) == "first")
            try pool.writeWithoutTransaction { db in
                #expect(cache.cachedValue(for: 1) == nil)
                try db.execute("UPDATE notes SET body = 'second' WHERE id = 1")
                // A read from another thread (this one holds the writer) sees the commit and keeps nothing.
                let read = try Background.run { try cache.valueWithoutWaiting(for: 1, read: Self.body(1)) }.join()
                #expect(read == "second")
                #expect(cache.cachedValue(for: 1) == nil)
            }
        }
    }

    /// What a commit's callbacks wake (the change log's subscribers, `syncDeltas`) reads at once:
    /// the entry read before the commit is gone by then, in the blocking and the async write alike.
    /// (Found by the convergence simulation: the count moved only after the callbacks, so a live
    /// delivery showed the signed-in user's account as it was before the change it delivered.)
    @Test func aCommitsCallbacksNoLongerSeeTheEntriesItEnded() async throws {
        try await withNotes { pool, cache in
            let seen = Mutex<[String??]>([])
            for (round, body) in ["second", "third"].enumerated() {
                #expect(try await cache.value(for: 1, read: Self.body(1)) != body)
                let write: @Sendable (Database) throws -> Void = { db in
                    try db.execute("UPDATE notes SET body = ? WHERE id = 1", [body])
                    db.afterCommit { seen.withLock { $0.append(cache.cachedValue(for: 1)) } }
                }
                let blocking = { try pool.write(write) }
                if round == 0 { try blocking() } else { try await pool.write(write) }
            }
            #expect(seen.withLock { $0 } == [nil, nil])
        }
    }
}

extension DatabasePool {
    /// Runs a write on another thread and waits for it (a write from inside a read closure
    /// of the same pool would trap as reentrant on this thread).
    fileprivate func writeFromAnotherThread(_ body: @escaping @Sendable (Database) throws -> Void) throws {
        try Background.run { try self.write(body) }.join()
    }
}
