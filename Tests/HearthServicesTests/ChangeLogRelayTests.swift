import TestFixtures
@testable import HearthServices
import HearthStore
import Testing

/// Two instances sharing one database, each with its own relay: what a subscriber receives
/// does not depend on the instance it is connected to, nor on the one that committed.
@Suite struct ChangeLogRelayTests {
    private static let kitchen = Topic.household("kitchen")
    private static let garden = Topic.household("garden")

    /// One server instance: its change log publishes through its relay.
    private struct Instance {
        let relay: ChangeLogRelay
        let changeLog: ChangeLog

        init(pool: DatabasePool, after sequence: Int64 = 0, pageSize: Int = 256) {
            relay = ChangeLogRelay(pool: pool, after: sequence, pageSize: pageSize)
            changeLog = ChangeLog(pool: pool, bus: relay)
        }

        @discardableResult
        func record(_ topic: Topic, _ value: Int) async throws -> Event {
            try await changeLog.pool.write { db in
                try changeLog.record(topic: topic, kind: "test.step", payload: value, in: db)
            }
        }
    }

    private func withTwoInstances(pageSize: Int = 256, _ body: (Instance, Instance) async throws -> Void) async throws {
        try await MigratedDatabase.withPool { pool in
            try await body(Instance(pool: pool, pageSize: pageSize), Instance(pool: pool, pageSize: pageSize))
        }
    }

    private func sequences(_ count: Int, from subscription: EventSubscription) async -> [Int64] {
        var iterator = subscription.makeAsyncIterator()
        var sequences: [Int64] = []
        while sequences.count < count, let delivery = await iterator.next() {
            guard case .event(let event) = delivery else {
                Issue.record("unexpected overflow")
                return sequences
            }
            sequences.append(event.sequence)
        }
        return sequences
    }

    @Test func subscribersOfEveryInstanceReceiveEveryChangeInSequenceOrder() async throws {
        try await withTwoInstances(pageSize: 2) { one, two in
            let onOne = one.relay.subscribe(to: [Self.kitchen], bufferSize: 16)
            let onTwo = two.relay.subscribe(to: [Self.kitchen, Self.garden], bufferSize: 16)
            var kitchen: [Int64] = []
            var all: [Int64] = []
            for value in 1...7 {
                let topic = value.isMultiple(of: 3) ? Self.garden : Self.kitchen
                let event = try await (value.isMultiple(of: 2) ? two : one).record(topic, value)
                all.append(event.sequence)
                if topic == Self.kitchen { kitchen.append(event.sequence) }
            }
            // Pages of two: the relays read the log three times and a bit, in order.
            #expect(try await one.relay.catchUp() == 7)
            #expect(try await two.relay.catchUp() == 7)
            #expect(await sequences(kitchen.count, from: onOne) == kitchen)
            #expect(await sequences(all.count, from: onTwo) == all)
            #expect(one.relay.deliveredSequence == all.last)
            // Nothing new: a read that delivers nothing, and no repeats.
            #expect(try await one.relay.catchUp() == 0)
        }
    }

    @Test func aCommitHereWaitsBehindAnEarlierCommitElsewhere() async throws {
        try await withTwoInstances { one, two in
            let onOne = one.relay.subscribe(to: [Self.kitchen], bufferSize: 16)
            let elsewhere = try await two.record(Self.kitchen, 1)
            let here = try await one.record(Self.kitchen, 2)
            // Publishing after the commit only woke the relay: the subscriber receives the
            // earlier sequence first, once the relay has read the log.
            try await one.relay.catchUp()
            #expect(await sequences(2, from: onOne) == [elsewhere.sequence, here.sequence])
        }
    }

    @Test func aFeedResumesOnAnotherInstanceFromItsCursorWithoutGapsOrRepeats() async throws {
        try await withTwoInstances { one, two in
            let first = one.changeLog.feed(of: [Self.kitchen], after: 0)
            var iterator = first.makeAsyncIterator()
            let a = try await one.record(Self.kitchen, 1)
            try await one.relay.catchUp()
            #expect(try await iterator.next()?.sequence == a.sequence)
            first.cancel()
            // The client reconnects to the other instance with its cursor; meanwhile changes
            // came from both.
            let b = try await two.record(Self.kitchen, 2)
            let c = try await one.record(Self.kitchen, 3)
            let resumed = two.changeLog.feed(of: [Self.kitchen], after: a.sequence)
            var next = resumed.makeAsyncIterator()
            #expect(try await next.next()?.sequence == b.sequence)
            #expect(try await next.next()?.sequence == c.sequence)
            let d = try await one.record(Self.kitchen, 4)
            try await two.relay.catchUp()
            #expect(try await next.next()?.sequence == d.sequence)
        }
    }

    @Test func runningRelaysDeliverWhatWakesThem() async throws {
        try await withTwoInstances { one, two in
            let onTwo = two.relay.subscribe(to: [Self.kitchen], bufferSize: 16)
            let clock = ManualClock()
            let running = Task { await two.relay.run(clock: clock, retryDelay: .seconds(1)) }
            defer { running.cancel() }
            let elsewhere = try await one.record(Self.kitchen, 1)
            // What a notification from the other instance does.
            two.relay.wake()
            #expect(await sequences(1, from: onTwo) == [elsewhere.sequence])
            // A commit on this instance wakes it through the bus.
            let here = try await two.record(Self.kitchen, 2)
            #expect(await sequences(1, from: onTwo) == [here.sequence])
            running.cancel()
            await running.value
        }
    }
}
