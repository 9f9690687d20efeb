/// Publish/subscribe for committed changes: the channel between the code that changes
/// data and the live subscriptions (leaderboards, claims, sync deltas, server events)
/// that tell devices about it.
///
/// ## Where events come from
///
/// Every event is a row of the change log first. A service records it inside its write
/// transaction with ``ChangeLog/record(topic:kind:payload:in:)``, which assigns the
/// change-log sequence; the event is published only after that transaction commits, from
/// the writer connection before the next write transaction can start. A rolled-back
/// transaction publishes nothing.
///
/// ## Ordering guarantee
///
/// Sequences increase in commit order across all topics, and ``publish(_:)`` is called in
/// that order, so every subscriber receives the events of its topics in strictly
/// increasing sequence order (across all of its topics, not only within each). A
/// subscriber never sees an event twice and never sees events out of order; it may miss
/// events only in the overflow case below, and is then told so.
///
/// ## Overflow policy
///
/// Each subscription has a bounded buffer (`bufferSize` events). Publishing never waits
/// for a subscriber: when a buffer is full, its oldest event is dropped to make room for
/// the new one. The consumer's next read then yields one
/// ``EventDelivery/overflow(lastDeliveredSequence:)`` marker, carrying the sequence of
/// the last event it was given, followed by the newest buffered events. However many
/// events are dropped before the consumer reads again, that is one overflow episode and
/// one marker. The consumer catches up by reading the change log after that sequence
/// (``ChangeLog/changes(after:topics:limit:)``) up to the first event it receives after
/// the marker, or resynchronizes from scratch; ``ChangeFeed`` does exactly that. Slow
/// consumers therefore cost bounded memory and never slow publishers or other
/// subscribers down.
///
/// ## A PostgreSQL `LISTEN`/`NOTIFY` backend
///
/// A multi-instance deployment would implement this protocol on top of an
/// ``InProcessEventBus`` that keeps doing the local fan-out:
///
/// - The change log lives in PostgreSQL; its sequence is a `bigserial`. `publish(_:)`
///   sends, after commit, `NOTIFY hearth_events, '<sequence>'` (or `pg_notify` inside the
///   transaction itself, which PostgreSQL delivers only on commit and in commit order).
///   Payloads stay in the table: `NOTIFY` payloads are limited to 8000 bytes.
/// - Each instance `LISTEN`s on one connection. On a notification it reads the change log
///   after the last sequence it has forwarded (`changes(after:)`, which also covers
///   notifications lost while reconnecting) and hands the rows, in sequence order, to its
///   local bus's `publish(_:)`. Topics travel as their string ``Topic/key``; payloads as
///   their JSON text (``EventPayload/init(json:)``).
/// - `subscribe(to:bufferSize:)` delegates to the local bus, so the ordering and overflow
///   rules above hold unchanged on every instance.
public protocol EventBus: Sendable {
    /// Delivers already committed events, given in commit (sequence) order, to the
    /// subscribers of their topics. Returns without waiting for any subscriber.
    func publish(_ events: [Event])

    /// Starts a subscription to `topics` with room for `bufferSize` undelivered events
    /// (at least one). It receives events published after this call returns.
    func subscribe(to topics: Set<Topic>, bufferSize: Int) -> EventSubscription
}
