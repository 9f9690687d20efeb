import HearthServices
import Synchronization

/// Turns bus subscriptions into the source streams of GraphQL subscription fields.
public enum EventStream {
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
        // The iterator is moved out of the mutex for the await and back in afterwards: the
        // stream calls this closure once at a time, from its single consumer.
        let iterator = Mutex<EventSubscription.Iterator?>(subscription.makeAsyncIterator())
        let missed = Atomic(false)
        return AsyncThrowingStream(unfolding: {
            guard var current = iterator.withLock({ $0.take() }) else { return nil }
            while let delivery = await current.next() {
                switch delivery {
                case .overflow:
                    missed.store(true, ordering: .relaxed)
                case .event(let event):
                    iterator.withLock { $0 = current }
                    do {
                        return try transform(event, missed.exchange(false, ordering: .relaxed))
                    } catch {
                        subscription.cancel()
                        throw error
                    }
                }
            }
            subscription.cancel()
            return nil
        })
    }
}
