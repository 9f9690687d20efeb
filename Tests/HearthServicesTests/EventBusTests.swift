import FoundationEssentials
import HearthServices
import Testing

@Suite struct EventBusTests {
    private static let kitchen = Topic.household("kitchen")
    private static let garden = Topic.household("garden")

    private func event(_ sequence: Int64, _ topic: Topic = kitchen) throws -> Event {
        Event(
            sequence: sequence, topic: topic, kind: "test.tick",
            payload: try EventPayload(sequence), committedAt: Date(timeIntervalSince1970: 0)
        )
    }

    private func publish(_ sequences: ClosedRange<Int64>, on bus: InProcessEventBus, _ topic: Topic = kitchen) throws {
        for sequence in sequences {
            bus.publish([try event(sequence, topic)])
        }
    }

    /// What a delivery says, in a form `#expect` can compare.
    private enum Seen: Equatable {
        case event(Int64)
        case overflow(Int64?)
    }

    private func next(_ iterator: inout EventSubscription.Iterator) async -> Seen? {
        switch await iterator.next() {
        case .event(let event): .event(event.sequence)
        case .overflow(let last): .overflow(last)
        case nil: nil
        }
    }

    private func next(_ count: Int, _ iterator: inout EventSubscription.Iterator) async -> [Seen?] {
        var seen: [Seen?] = []
        for _ in 0..<count {
            seen.append(await next(&iterator))
        }
        return seen
    }

    @Test func aSubscriberReceivesOnlyItsTopicsInPublishOrder() async throws {
        let bus = InProcessEventBus()
        let kitchenOnly = bus.subscribe(to: [Self.kitchen], bufferSize: 16)
        let both = bus.subscribe(to: [Self.kitchen, Self.garden], bufferSize: 16)
        bus.publish([try event(1, Self.kitchen), try event(2, Self.garden), try event(3, .server)])
        bus.publish([try event(4, Self.kitchen)])

        var kitchenIterator = kitchenOnly.makeAsyncIterator()
        #expect(await next(2, &kitchenIterator) == [.event(1), .event(4)])
        var bothIterator = both.makeAsyncIterator()
        #expect(await next(3, &bothIterator) == [.event(1), .event(2), .event(4)])
        #expect(bus.subscriberCount(for: Self.kitchen) == 2)
        #expect(bus.subscriberCount(for: Self.garden) == 1)
    }

    @Test func aSubscriberIteratingInAnotherTaskReceivesAPublishedEvent() async throws {
        let bus = InProcessEventBus()
        let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 4)
        let (started, signalStarted) = AsyncStream<Void>.makeStream()
        let reader = Task {
            var iterator = subscription.makeAsyncIterator()
            signalStarted.yield()
            return await next(&iterator)
        }
        for await _ in started { break }
        try publish(1...1, on: bus)
        #expect(await reader.value == .event(1))
    }

    @Test func aFullBufferDropsTheOldestAndYieldsOneOverflowMarkerPerEpisode() async throws {
        let bus = InProcessEventBus()
        let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 3)
        var iterator = subscription.makeAsyncIterator()

        // Overflow before anything was delivered: the marker carries no sequence.
        try publish(1...5, on: bus)
        #expect(await next(4, &iterator) == [.overflow(nil), .event(3), .event(4), .event(5)])

        // Within capacity: no marker.
        try publish(6...6, on: bus)
        #expect(await next(&iterator) == .event(6))

        // Six more into three places: one marker naming the last delivered event, then the newest.
        try publish(7...12, on: bus)
        #expect(await next(4, &iterator) == [.overflow(6), .event(10), .event(11), .event(12)])

        try publish(13...13, on: bus)
        #expect(await next(&iterator) == .event(13))
    }

    @Test func eventsAlreadyTakenByTheIteratorComeBeforeTheOverflowMarker() async throws {
        let bus = InProcessEventBus()
        let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 2)
        var iterator = subscription.makeAsyncIterator()
        try publish(1...2, on: bus)
        // The iterator takes the batch [1, 2] and yields 1; 2 stays in its hands.
        #expect(await next(&iterator) == .event(1))
        try publish(3...6, on: bus)
        #expect(await next(4, &iterator) == [.event(2), .overflow(2), .event(5), .event(6)])
    }

    @Test func cancellingASubscriptionReleasesItAndEndsIteration() async throws {
        let bus = InProcessEventBus()
        let subscription = bus.subscribe(to: [Self.kitchen, Self.garden], bufferSize: 8)
        try publish(1...3, on: bus)
        #expect(bus.subscriberCount == 1)

        subscription.cancel()
        #expect(bus.subscriberCount == 0)
        #expect(bus.subscriberCount(for: Self.kitchen) == 0)
        #expect(bus.subscriberCount(for: Self.garden) == 0)
        // The buffered events were dropped with the buffer.
        var iterator = subscription.makeAsyncIterator()
        #expect(await next(&iterator) == nil)
        subscription.cancel()
        #expect(bus.subscriberCount == 0)
    }

    @Test func droppingTheLastReferenceReleasesASubscription() throws {
        let bus = InProcessEventBus()
        do {
            let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 8)
            try publish(1...3, on: bus)
            #expect(subscription.topics == [Self.kitchen])
            #expect(bus.subscriberCount == 1)
        }
        #expect(bus.subscriberCount == 0)
    }

    @Test func cancellingTheConsumingTaskReleasesItsSubscription() async throws {
        let bus = InProcessEventBus()
        let subscription = bus.subscribe(to: [Self.kitchen], bufferSize: 8)
        let (received, signalReceived) = AsyncStream<Int64>.makeStream()
        let consumer = Task {
            var count = 0
            for await delivery in subscription {
                if case .event(let event) = delivery {
                    signalReceived.yield(event.sequence)
                }
                count += 1
            }
            return count
        }
        try publish(1...1, on: bus)
        for await sequence in received {
            #expect(sequence == 1)
            break
        }
        // The consumer now waits for a second event, which never comes.
        consumer.cancel()
        #expect(await consumer.value == 1)
        // Released by the cancellation, while this test still holds the subscription.
        #expect(bus.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func tenThousandSubscribersEachReceiveOnePublishedEvent() async throws {
        let bus = InProcessEventBus()
        let subscriptions = (0..<10_000).map { _ in bus.subscribe(to: [Self.kitchen], bufferSize: 4) }
        let published = try event(7)
        let received = await withTaskGroup(of: Int64?.self) { group in
            for subscription in subscriptions {
                group.addTask {
                    var iterator = subscription.makeAsyncIterator()
                    if case .event(let event) = await iterator.next() { return event.sequence }
                    return nil
                }
            }
            bus.publish([published])
            var received: [Int64?] = []
            for await sequence in group {
                received.append(sequence)
            }
            return received
        }
        #expect(received.count == 10_000)
        #expect(received.allSatisfy { $0 == 7 })
        subscriptions.forEach { $0.cancel() }
        #expect(bus.subscriberCount == 0)
    }
}
