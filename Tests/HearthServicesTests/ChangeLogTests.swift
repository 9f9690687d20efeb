import TestFixtures
import FoundationEssentials
@testable import HearthServices
import HearthStore
import Testing

@Suite struct ChangeLogTests {
    private static let kitchen = Topic.household("kitchen")
    private static let garden = Topic.household("garden")

    private struct Abort: Error {}

    private struct ChoreDone: Codable, Sendable, Equatable {
        var chore: String
        var at: Date
    }

    /// The next `count` events of `subscription`, failing on an overflow marker or an end.
    private func events(_ count: Int, from iterator: inout EventSubscription.Iterator) async -> [Event] {
        var events: [Event] = []
        while events.count < count {
            switch await iterator.next() {
            case .event(let event): events.append(event)
            case .overflow(let last):
                Issue.record("unexpected overflow after \(String(describing: last))")
                return events
            case nil:
                Issue.record("the subscription ended")
                return events
            }
        }
        return events
    }

    /// A payload naming its objects, as every service's payloads do.
    private struct Touched: Codable, Sendable, ChangeSubjects {
        var ids: [String]
        var touchedObjectIDs: [String] { ids }
    }

    @Test func eachRowListsThePayloadsObjectsThenTheOnesPassedOnceEachAsPublishedAndAsRead() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 10)
            let recorded = try await changeLog.pool.write { db in
                [
                    try changeLog.record(topic: Self.kitchen, kind: "test.cascade", payload: Touched(ids: ["chr_a", "chi_b"]), touching: ["chi_c", "chr_a"], in: db),
                    try changeLog.record(topic: Self.kitchen, kind: "test.plain", payload: ChoreDone(chore: "x", at: Date(timeIntervalSince1970: 0)), in: db),
                ]
            }
            #expect(recorded.map(\.objects) == [["chr_a", "chi_b", "chi_c"], []])
            var iterator = subscription.makeAsyncIterator()
            #expect(await events(2, from: &iterator).map(\.objects) == recorded.map(\.objects))
            let logged = try await changeLog.changes(after: 0, topics: [Self.kitchen], limit: 10)
            #expect(logged.map(\.objects) == recorded.map(\.objects))
        }
    }

    @Test func concurrentWritersPublishInCommitOrderOnEveryTopic() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let kitchenOnly = bus.subscribe(to: [Self.kitchen], bufferSize: 1000)
            let gardenOnly = bus.subscribe(to: [Self.garden], bufferSize: 1000)
            let both = bus.subscribe(to: [Self.kitchen, Self.garden], bufferSize: 1000)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Four writers: fewer than the test pool's connections, so none waits out the
                // acquire timeout on a loaded machine while the others retry behind the append lock.
                for writer in 0..<4 {
                    group.addTask {
                        for step in 0..<50 {
                            let topic = (writer + step) % 2 == 0 ? Self.kitchen : Self.garden
                            _ = try await changeLog.pool.write { db in
                                try changeLog.record(topic: topic, kind: "test.step", payload: [writer, step], in: db)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            var iterator = both.makeAsyncIterator()
            let all = await events(200, from: &iterator)
            #expect(all.map(\.sequence) == Array(1...200))

            let logged = try await changeLog.changes(after: 0, topics: [Self.kitchen, Self.garden], limit: 500)
            #expect(logged.map(\.sequence) == all.map(\.sequence))
            #expect(logged.map(\.topic) == all.map(\.topic))

            for (subscription, topic) in [(kitchenOnly, Self.kitchen), (gardenOnly, Self.garden)] {
                var iterator = subscription.makeAsyncIterator()
                let expected = all.filter { $0.topic == topic }.map(\.sequence)
                let received = await events(expected.count, from: &iterator)
                #expect(received.map(\.sequence) == expected)
            }
        }
    }

    @Test func eventsArePublishedOnlyAfterTheirTransactionCommits() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 8)
            try await changeLog.pool.write { db in
                try changeLog.record(topic: Self.kitchen, kind: "test.recorded", payload: "recorded", in: db)
                // Published directly, while the transaction is still open: it must arrive first.
                bus.publish([Event(
                    sequence: 0, topic: Self.kitchen, kind: "test.probe",
                    payload: try EventPayload("probe"), committedAt: Date()
                )])
            }
            var iterator = subscription.makeAsyncIterator()
            #expect(await events(2, from: &iterator).map(\.kind) == ["test.probe", "test.recorded"])
        }
    }

    @Test func aRolledBackTransactionPublishesNothing() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 8)
            await #expect(throws: Abort.self) {
                try await changeLog.pool.write { db in
                    try changeLog.record(topic: Self.kitchen, kind: "test.undone", payload: "undone", in: db)
                    throw Abort()
                }
            }
            _ = try await changeLog.pool.write { db in
                try changeLog.record(topic: Self.kitchen, kind: "test.kept", payload: "kept", in: db)
            }
            var iterator = subscription.makeAsyncIterator()
            let first = await events(1, from: &iterator)
            #expect(first.map(\.kind) == ["test.kept"])
            let logged = try await changeLog.changes(after: 0, topics: [Self.kitchen], limit: 10)
            #expect(logged.map(\.kind) == ["test.kept"])
            #expect(logged.map(\.sequence) == first.map(\.sequence))
        }
    }

    @Test func anUndoneSavepointPublishesNothingOfWhatItRecorded() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 8)
            try await changeLog.pool.write { db in
                try changeLog.record(topic: Self.kitchen, kind: "test.before", payload: 1, in: db)
                #expect(throws: Abort.self) {
                    try db.savepoint {
                        try changeLog.record(topic: Self.kitchen, kind: "test.undone", payload: 2, in: db)
                        throw Abort()
                    }
                }
                try changeLog.record(topic: Self.kitchen, kind: "test.after", payload: 3, in: db)
            }
            var iterator = subscription.makeAsyncIterator()
            #expect(await events(2, from: &iterator).map(\.kind) == ["test.before", "test.after"])
            let logged = try await changeLog.changes(after: 0, topics: [Self.kitchen], limit: 10)
            #expect(logged.map(\.kind) == ["test.before", "test.after"])
        }
    }

    @Test func catchingUpAfterAnOverflowReturnsExactlyTheMissedEvents() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, bus in
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 2)
            // Sees every event as the small subscription does, in the same publish; on PostgreSQL
            // the relay publishes after `record` returns, so the test waits for it here.
            let watcher = bus.subscribe(to: [Self.kitchen, Self.garden], bufferSize: 100)
            var watching = watcher.makeAsyncIterator()
            var iterator = subscription.makeAsyncIterator()
            func record(_ topic: Topic, _ index: Int) async throws -> Event {
                try await changeLog.pool.write { db in
                    try changeLog.record(topic: topic, kind: "test.step", payload: index, in: db)
                }
            }
            let first = try await record(Self.kitchen, 0)
            #expect(await events(1, from: &iterator).map(\.sequence) == [first.sequence])

            var kitchenEvents: [Event] = []
            for index in 1...10 {
                kitchenEvents.append(try await record(Self.kitchen, index))
                _ = try await record(Self.garden, index)
            }
            #expect(await events(21, from: &watching).count == 21)
            guard case .overflow(let lastDelivered) = await iterator.next() else {
                Issue.record("expected an overflow marker")
                return
            }
            #expect(lastDelivered == first.sequence)
            let newest = await events(2, from: &iterator)
            #expect(newest.map(\.sequence) == kitchenEvents.suffix(2).map(\.sequence))

            let missed = try await changeLog.changes(after: lastDelivered ?? 0, topics: [Self.kitchen], limit: 100)
                .filter { $0.sequence < newest[0].sequence }
            #expect(missed.map(\.sequence) == kitchenEvents.prefix(8).map(\.sequence))
            #expect(try missed.map { try $0.payload.decode(Int.self) } == Array(1...8))
        }
    }

    @Test func changesArePagedByCursor() async throws {
        try await MigratedDatabase.withChangeLog { changeLog, _ in
            #expect(try await changeLog.latestSequence() == 0)
            try await changeLog.pool.write { db in
                for index in 0..<5 {
                    try changeLog.record(topic: Self.kitchen, kind: "test.step", payload: index, in: db)
                }
            }
            let firstPage = try await changeLog.changes(after: 0, topics: [Self.kitchen], limit: 2)
            #expect(firstPage.map(\.sequence) == [1, 2])
            let secondPage = try await changeLog.changes(after: 2, topics: [Self.kitchen], limit: 2)
            #expect(secondPage.map(\.sequence) == [3, 4])
            #expect(try await changeLog.changes(after: 4, topics: [Self.kitchen], limit: 2).map(\.sequence) == [5])
            #expect(try await changeLog.changes(after: 0, topics: [Self.garden], limit: 2).isEmpty)
            #expect(try await changeLog.changes(after: 0, topics: [], limit: 2).isEmpty)
            #expect(try await changeLog.latestSequence() == 5)
        }
    }

    @Test func aPayloadDateWithoutMillisecondsOrWithAnOffsetDecodes() throws {
        let payload = EventPayload(json: #"{"at":"2025-03-01T10:30:00+02:00","chore":"dishes"}"#)
        #expect(try payload.decode(ChoreDone.self).at == Date(timeIntervalSince1970: 1_740_817_800))
        let malformed = EventPayload(json: #"{"at":"yesterday","chore":"dishes"}"#)
        #expect(throws: DecodingError.self) { try malformed.decode(ChoreDone.self) }
    }

    @Test func payloadsReadBackFromTheLogEqualThePublishedOnes() async throws {
        let instant = Date(timeIntervalSince1970: 1_740_817_800.25)
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: MigratedDatabase.migrations).migrate(pool)
            let bus = InProcessEventBus()
            let changeLog = ChangeLog(pool: pool, bus: bus, clock: ManualClock(start: instant))
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 8)
            let payload = ChoreDone(chore: "dishes", at: instant)
            _ = try await pool.write { db in
                try changeLog.record(topic: Self.kitchen, kind: "chore.completed", payload: payload, in: db)
            }
            var iterator = subscription.makeAsyncIterator()
            let published = try #require(await events(1, from: &iterator).first)
            let logged = try #require(try await changeLog.changes(after: 0, topics: [Self.kitchen], limit: 1).first)

            #expect(published.payload.json == #"{"at":"2025-03-01T08:30:00.250Z","chore":"dishes"}"#)
            #expect(logged.payload.json == published.payload.json)
            #expect(try logged.payload.decode(ChoreDone.self) == payload)
            #expect(try published.payload.decode(ChoreDone.self) == payload)
            #expect(logged.sequence == published.sequence)
            #expect(logged.topic == published.topic)
            #expect(logged.kind == published.kind)
            #expect(logged.committedAt == published.committedAt)
            #expect(published.committedAt == instant)
        }
    }
}
