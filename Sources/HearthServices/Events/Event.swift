import FoundationEssentials

/// One committed change, as recorded in the change log and published on the bus.
///
/// A class with immutable fields, so fanning one event out to thousands of subscribers
/// costs one reference count per subscriber, not a copy of its strings.
public final class Event: Sendable, CustomStringConvertible {
    /// The change-log sequence: unique and increasing in commit order across all topics.
    public let sequence: Int64
    /// Where the event was published.
    public let topic: Topic
    /// What happened.
    public let kind: EventKind
    /// The event's data.
    public let payload: EventPayload
    /// When the change was recorded in its transaction (millisecond precision).
    public let committedAt: Date
    /// The global ids of the objects the change touched, each once (``ChangeSubjects``): what
    /// offline sync reads again, or reports gone.
    public let objects: [String]

    /// An event; normally made by ``ChangeLog/record(topic:kind:payload:in:)`` or read
    /// back by ``ChangeLog/changes(after:topics:limit:)``.
    public init(sequence: Int64, topic: Topic, kind: EventKind, payload: EventPayload, committedAt: Date, objects: [String] = []) {
        self.sequence = sequence
        self.topic = topic
        self.kind = kind
        self.payload = payload
        self.committedAt = committedAt
        self.objects = objects
    }

    public var description: String {
        "#\(sequence) \(topic) \(kind) \(payload.json)"
    }
}
