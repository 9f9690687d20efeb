import TestFixtures
@testable import HearthServices
import HearthStore
import Testing

@Suite struct ChangeFeedTests {
    private static let kitchen = Topic.household("kitchen")
    private static let garden = Topic.household("garden")

    @discardableResult
    private func record(_ changeLog: ChangeLog, _ topic: Topic, _ value: Int) async throws -> Event {
        try await changeLog.pool.write { db in
            try changeLog.record(topic: topic, kind: "test.step", payload: value, in: db)
        }
    }

    private func next(_ count: Int, _ iterator: inout ChangeFeed.Iterator) async throws -> [Int64] {
        var sequences: [Int64] = []
        for _ in 0..<count {
            guard let event = try await iterator.next() else { break }
            sequences.append(event.sequence)
        }
        return sequences
    }

    @Test func replaysTheLogAfterTheCursorThenFollowsLiveChanges() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, _ in
            for value in 1...3 {
                try await record(changeLog, Self.kitchen, value)
            }
            let feed = changeLog.feed(of: [Self.kitchen], after: 1, pageSize: 1)
            var iterator = feed.makeAsyncIterator()
            #expect(try await next(2, &iterator) == [2, 3])
            try await record(changeLog, Self.garden, 4)
            try await record(changeLog, Self.kitchen, 5)
            #expect(try await next(1, &iterator) == [5])
        }
    }

    @Test func changesCommittedBetweenSubscribingAndReadingTheLogComeOnce() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, _ in
            try await record(changeLog, Self.kitchen, 1)
            let feed = changeLog.feed(of: [Self.kitchen], after: 0)
            // Published on the bus and present in the log when the feed first reads it.
            try await record(changeLog, Self.kitchen, 2)
            var iterator = feed.makeAsyncIterator()
            #expect(try await next(2, &iterator) == [1, 2])
            try await record(changeLog, Self.kitchen, 3)
            #expect(try await next(1, &iterator) == [3])
        }
    }

    @Test func anOverflowedSubscriptionIsRefilledFromTheLogWithoutGaps() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let feed = changeLog.feed(of: [Self.kitchen], after: 0, bufferSize: 2, pageSize: 3)
            var iterator = feed.makeAsyncIterator()
            try await record(changeLog, Self.kitchen, 1)
            #expect(try await next(1, &iterator) == [1])
            var expected: [Int64] = []
            for value in 2...20 {
                let event = try await record(changeLog, value.isMultiple(of: 3) ? Self.garden : Self.kitchen, value)
                if event.topic == Self.kitchen {
                    expected.append(event.sequence)
                }
            }
            #expect(try await next(expected.count, &iterator) == expected)
            let last = try await record(changeLog, Self.kitchen, 21)
            #expect(try await next(1, &iterator) == [last.sequence])
            #expect(bus.subscriberCount == 1)
        }
    }

    @Test func cancellingTheConsumingTaskEndsTheFeedAndReleasesItsSubscription() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let feed = changeLog.feed(of: [Self.kitchen], after: 0)
            let (received, signalReceived) = AsyncStream<Int64>.makeStream()
            let consumer = Task {
                for try await event in feed {
                    signalReceived.yield(event.sequence)
                }
            }
            try await record(changeLog, Self.kitchen, 1)
            for await sequence in received {
                #expect(sequence == 1)
                break
            }
            consumer.cancel()
            _ = await consumer.result
            #expect(bus.subscriberCount == 0)
            withExtendedLifetime(feed) {}
        }
    }
}
