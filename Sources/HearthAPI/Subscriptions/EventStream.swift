import HearthServices
import Synchronization

/// Turns bus subscriptions into the source streams of GraphQL subscription fields.
public enum EventStream {
    /// What a subscription field makes of one bus event (see ``steps(_:_:)``).
    public enum Step: Sendable {
        /// Deliver the value and go on.
        case next(any Sendable)
        /// Deliver the value and end the stream: the bus subscription is cancelled at once, and
        /// the stream finishes when asked for the next value.
        case last(any Sendable)
        /// Deliver nothing for this event. Whether events were dropped before it carries over to
        /// the next event that is delivered.
        case skip
        /// Deliver nothing more: the bus subscription is cancelled and the stream finishes.
        case end
    }

    /// A source stream of `subscription`'s events, each mapped by `transform` (which receives
    /// whether events were dropped just before it). Pull-driven: an event is taken from the bus
    /// when the executor asks for the next response, on the consumer's task, so no task is
    /// spawned per subscriber. Cancelling the consumer's task, finishing the stream or dropping
    /// it cancels `subscription` and the bus forgets the subscriber.
    ///
    /// A `transform` that throws ends the stream with its error.
    public static func map(
        _ subscription: EventSubscription, _ transform: @escaping @Sendable (Event, _ missedEvents: Bool) throws -> any Sendable
    ) -> AsyncThrowingStream<any Sendable, any Error> {
        steps(subscription) { event, missedEvents in .next(try transform(event, missedEvents)) }
    }

    /// Like ``map(_:_:)``, with a `step` that may also skip an event or end the stream with or
    /// without delivering one (a subscription that ends when its subscriber loses access), and
    /// may wait (to read whether the subscriber still has access).
    public static func steps(
        _ subscription: EventSubscription, _ step: @escaping @Sendable (Event, _ missedEvents: Bool) async throws -> Step
    ) -> AsyncThrowingStream<any Sendable, any Error> {
        steps(subscription.makeAsyncIterator(), cancel: subscription.cancel, step)
    }

    /// Like ``steps(_:_:)-(EventSubscription,_)``, over a change feed (a subscription that resumes
    /// from a cursor): it never misses events (`missedEvents` is always false), and throws what
    /// the feed throws (`CURSOR_EXPIRED`, a failed read).
    public static func steps(
        _ feed: ChangeFeed, _ step: @escaping @Sendable (Event, _ missedEvents: Bool) async throws -> Step
    ) -> AsyncThrowingStream<any Sendable, any Error> {
        steps(FeedDeliveries(events: feed.makeAsyncIterator()), cancel: feed.cancel, step)
    }

    /// The stream of `deliveries` mapped by `step`; `cancel` releases their bus subscription.
    private static func steps<Deliveries: DeliveryIterator>(
        _ deliveries: Deliveries, cancel: @escaping @Sendable () -> Void,
        _ step: @escaping @Sendable (Event, _ missedEvents: Bool) async throws -> Step
    ) -> AsyncThrowingStream<any Sendable, any Error> {
        // The iterator is moved out of the mutex for the await and back in afterwards: the
        // stream calls this closure once at a time, from its single consumer. It is not put
        // back after the last value, so the next call finishes the stream.
        let iterator = Mutex<Deliveries?>(deliveries)
        let missed = Atomic(false)
        return AsyncThrowingStream(unfolding: {
            guard var current = iterator.withLock({ $0.take() }) else { return nil }
            while let delivery = try await Self.next(&current, cancel: cancel) {
                switch delivery {
                case .overflow:
                    missed.store(true, ordering: .relaxed)
                case .event(let event):
                    let missedEvents = missed.exchange(false, ordering: .relaxed)
                    let outcome: Step
                    do {
                        outcome = try await step(event, missedEvents)
                    } catch {
                        cancel()
                        throw error
                    }
                    switch outcome {
                    case .next(let value):
                        iterator.withLock { $0 = current }
                        return value
                    case .last(let value):
                        cancel()
                        return value
                    case .skip:
                        if missedEvents { missed.store(true, ordering: .relaxed) }
                    case .end:
                        cancel()
                        return nil
                    }
                }
            }
            cancel()
            return nil
        })
    }

    /// The next delivery of `deliveries`; what they throw ends the stream (after `cancel`).
    private static func next<Deliveries: DeliveryIterator>(_ deliveries: inout Deliveries, cancel: @Sendable () -> Void) async throws -> EventDelivery? {
        do {
            return try await deliveries.nextDelivery()
        } catch {
            cancel()
            throw error
        }
    }
}

/// What ``EventStream`` reads events from: a bus subscription's iterator, or a change feed's.
private protocol DeliveryIterator: Sendable {
    /// The next event or overflow notice; `nil` at the end.
    mutating func nextDelivery() async throws -> EventDelivery?
}

extension EventSubscription.Iterator: DeliveryIterator {
    mutating func nextDelivery() async -> EventDelivery? { await next() }
}

/// A change feed's events as deliveries (a feed never overflows: it catches up from the log).
private struct FeedDeliveries: DeliveryIterator {
    var events: ChangeFeed.Iterator

    mutating func nextDelivery() async throws -> EventDelivery? { try await events.next().map { .event($0) } }
}
