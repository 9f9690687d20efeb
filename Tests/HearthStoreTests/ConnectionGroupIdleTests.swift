@testable import HearthStore
import Testing

/// ``ConnectionGroup``'s idle bookkeeping, which the PostgreSQL store uses to close connections a past
/// peak left unused: the longest-idle open connection is offered, never the one lent next, and a
/// closed one goes back below every open one.
@Suite struct ConnectionGroupIdleTests {
    @Test func theLongestIdleOpenConnectionIsOfferedButNeverTheOneLentNext() throws {
        let group = ConnectionGroup(connections: [1, 2, 3], name: "test")
        // Lent last in, first out: 3, then 2, then 1.
        #expect(try group.acquire() == 3)
        group.release(3)
        #expect(group.acquireIdle(atLeast: .seconds(3600)) == nil)
        // Idle for at least zero: 1 has been idle longest; 3 is lent next and always kept.
        #expect(group.acquireIdle(atLeast: .zero) == 1)
        #expect(group.statistics.inUse == 1)
        group.releaseClosed(1)
        #expect(group.acquireIdle(atLeast: .zero) == 2)
        group.releaseClosed(2)
        // Only closed connections are left below the one lent next.
        #expect(group.acquireIdle(atLeast: .zero) == nil)
        // The open connection is lent before the closed ones (each closed one went to the bottom).
        #expect(try [group.acquire(), group.acquire(), group.acquire()] == [3, 1, 2])
        #expect(group.statistics.inUse == 3)
        #expect(group.statistics.acquisitions == 4)
    }

    @Test func aClosedConnectionGoesStraightToTheOldestWaiterAndNothingIsOfferedOnceTheGroupCloses() async throws {
        let group = ConnectionGroup(connections: [1, 2], name: "test")
        let first = try await group.acquire()
        // The only idle connection is the one lent next: kept.
        #expect(group.acquireIdle(atLeast: .zero) == nil)
        let second = try await group.acquire()
        let waiter = Task { try await group.acquire() }
        while group.statistics.waiting == 0 { await Task.yield() }
        group.releaseClosed(second)
        #expect(try await waiter.value == second)
        group.release(second)
        group.release(first)
        #expect(group.close().sorted() == [1, 2])
        #expect(group.acquireIdle(atLeast: .zero) == nil)
    }
}
