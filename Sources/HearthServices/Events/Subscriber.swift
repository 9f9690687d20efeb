import Synchronization

/// The receiving end of one subscription inside a bus: a bounded buffer filled by
/// publishers and emptied, a batch at a time, by the subscription's single consumer.
///
/// Publishing never waits: it appends under a short lock and, when the consumer is
/// suspended waiting, hands it the batch directly and returns the continuation to resume.
final class Subscriber: Sendable {
    /// Events handed to the consumer in one go, preceded by an overflow notice if any.
    struct Batch: Sendable {
        /// Set when events were dropped before `events`: the overflow marker to yield first,
        /// holding the last delivered sequence (itself `nil` if nothing was delivered yet).
        var overflow: Int64??
        var events: [Event]
    }

    /// A suspended consumer to resume with its batch once the publisher's locks are released.
    struct Wakeup {
        fileprivate let continuation: UnsafeContinuation<Batch?, Never>
        fileprivate let batch: Batch

        func resume() {
            continuation.resume(returning: batch)
        }
    }

    private struct State {
        var ring: EventRing
        /// Events were dropped since the consumer last took a batch.
        var overflowed = false
        /// The sequence of the last event handed to the consumer.
        var lastDelivered: Int64?
        /// The consumer, when it waits for events.
        var waiter: UnsafeContinuation<Batch?, Never>?
        var isFinished = false

        /// `.some(nil)` when finished, `.some(batch)` when events are pending, `nil` when
        /// the consumer has to wait.
        mutating func takeIfReady() -> Batch?? {
            if isFinished { return .some(nil) }
            return takeBatch().map { .some($0) }
        }

        /// Everything pending, marking it delivered; `nil` when nothing is.
        mutating func takeBatch() -> Batch? {
            guard overflowed || !ring.isEmpty else { return nil }
            let batch = Batch(overflow: overflowed ? .some(lastDelivered) : nil, events: ring.drain())
            overflowed = false
            if let last = batch.events.last {
                lastDelivered = last.sequence
            }
            return batch
        }
    }

    /// The topics this subscriber receives.
    let topics: Set<Topic>
    private let state: Mutex<State>

    init(topics: Set<Topic>, bufferSize: Int) {
        self.topics = topics
        self.state = Mutex(State(ring: EventRing(capacity: bufferSize)))
    }

    /// Buffers `event` (dropping the oldest if full) or, when the consumer is waiting,
    /// gives it the event and returns the wakeup the caller must ``Wakeup/resume()``.
    func enqueue(_ event: Event) -> Wakeup? {
        state.withLock { state in
            guard !state.isFinished else { return nil }
            if !state.ring.append(event) {
                state.overflowed = true
            }
            guard let waiter = state.waiter, let batch = state.takeBatch() else { return nil }
            state.waiter = nil
            return Wakeup(continuation: waiter, batch: batch)
        }
    }

    /// The next batch, waiting for one if none is pending; `nil` once finished.
    /// One consumer only: the subscription's iterator. Cancelling the waiting task finishes
    /// the subscriber.
    func nextBatch() async -> Batch? {
        if Task.isCancelled {
            finish()
            return nil
        }
        if let ready = state.withLock({ $0.takeIfReady() }) {
            return ready
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Batch?, Never>) in
                // The lock decides, exactly once, who resumes the continuation: this code
                // at once, a publisher's wakeup, or `finish()`.
                let ready: Batch?? = state.withLock { state in
                    if let ready = state.takeIfReady() { return ready }
                    precondition(state.waiter == nil, "an event subscription is iterated by one task at a time")
                    state.waiter = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            finish()
        }
    }

    /// Stops delivery, drops buffered events and ends a waiting consumer. Idempotent.
    func finish() {
        let waiter = state.withLock { state in
            state.isFinished = true
            state.ring.removeAll()
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: nil)
    }
}
