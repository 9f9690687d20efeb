import Synchronization

/// A live subscription to some topics of an ``EventBus``: an asynchronous sequence of
/// ``EventDelivery`` values, iterated by one task.
///
/// ```swift
/// let subscription = bus.subscribe(to: [.household(id)], bufferSize: 256)
/// for await delivery in subscription {
///     switch delivery {
///     case .event(let event): send(event)
///     case .overflow(let last): try await resync(after: last)
///     }
/// }
/// ```
///
/// The subscription ends, and its buffer is released at once, when ``cancel()`` is
/// called, when the iterating task is cancelled, or when the last reference to it goes
/// away. Iteration then returns `nil`.
public final class EventSubscription: AsyncSequence, Sendable {
    public typealias Element = EventDelivery
    public typealias Failure = Never

    /// The topics this subscription receives.
    public var topics: Set<Topic> { subscriber.topics }

    private let subscriber: Subscriber
    private let unregister: @Sendable () -> Void
    /// Set by the first ``cancel()``: the subscriber may have been finished earlier by a
    /// cancelled consumer, but the bus still has to forget it, exactly once.
    private let isUnregistered = Atomic(false)

    /// Wraps a bus's `subscriber`; `unregister` removes it from the bus and runs once.
    init(subscriber: Subscriber, unregister: @escaping @Sendable () -> Void) {
        self.subscriber = subscriber
        self.unregister = unregister
    }

    deinit {
        cancel()
    }

    /// Ends the subscription: buffered events are dropped, a waiting iteration returns
    /// `nil`, and the bus forgets the subscriber. Calling it again does nothing.
    public func cancel() {
        subscriber.finish()
        if !isUnregistered.exchange(true, ordering: .acquiringAndReleasing) {
            unregister()
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self)
    }

    /// Yields the deliveries of one subscription, taking pending events from the bus a
    /// batch at a time.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        public typealias Element = EventDelivery
        public typealias Failure = Never

        private let subscription: EventSubscription
        private var overflow: Int64??
        private var events: [Event] = []
        private var position = 0

        fileprivate init(subscription: EventSubscription) {
            self.subscription = subscription
        }

        public mutating func next() async -> EventDelivery? {
            if overflow == nil, position == events.count {
                guard let batch = await subscription.subscriber.nextBatch() else {
                    subscription.cancel()
                    return nil
                }
                overflow = batch.overflow
                events = batch.events
                position = 0
            }
            if let lastDelivered = overflow {
                overflow = nil
                return .overflow(lastDeliveredSequence: lastDelivered)
            }
            defer { position += 1 }
            return .event(events[position])
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> EventDelivery? {
            await next()
        }
    }
}
