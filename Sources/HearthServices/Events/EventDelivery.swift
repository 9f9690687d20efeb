/// What an ``EventSubscription`` yields: an event, or the notice that some were dropped.
public enum EventDelivery: Sendable {
    /// The next event on one of the subscribed topics.
    case event(Event)
    /// The subscriber fell behind: its buffer was full and events were dropped after the
    /// one with sequence `lastDeliveredSequence` (`nil`: before any event was delivered).
    ///
    /// Comes once per overflow episode, followed by the newest events that still fit.
    /// Every event of the subscribed topics with a sequence above `lastDeliveredSequence`
    /// and below that of the next delivered event was dropped; read them with
    /// ``ChangeLog/changes(after:topics:limit:)``, or resynchronize from scratch.
    case overflow(lastDeliveredSequence: Int64?)
}
