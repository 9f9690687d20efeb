import FoundationEssentials
import GraphQL
import HearthServices
import Support

/// One `ServerEvent` of `schema.graphql`: a ``Topic/server`` event of the bus, as the
/// `serverEvents` subscription delivers it.
public struct ServerEventValue: Sendable, FieldResolvable {
    /// The change-log sequence.
    public var sequence: Int64
    /// `STARTED` or `HEARTBEAT`.
    public var kind: String
    /// When the event was recorded.
    public var at: WallClock.Instant
    /// When the publishing server process started.
    public var startedAt: WallClock.Instant
    /// 0 for `STARTED`, then the heartbeat count.
    public var heartbeat: Int
    /// Whether events were dropped before this one because the subscriber fell behind.
    public var missedEvents: Bool

    /// The value of a server event from the bus.
    /// - Throws: `DecodingError` when the payload is not a ``ServerStatus``.
    public init(_ event: Event, missedEvents: Bool) throws {
        let status = try event.payload.decode(ServerStatus.self)
        sequence = event.sequence
        kind = event.kind == .serverStarted ? "STARTED" : "HEARTBEAT"
        at = WallClock.Instant(event.committedAt)
        startedAt = WallClock.Instant(status.startedAt)
        heartbeat = status.heartbeat
        self.missedEvents = missedEvents
    }

    /// The `ServerEvent` fields of `schema.graphql`.
    public func fieldValue(named name: String) -> Any? {
        switch name {
        case "sequence": String(sequence)
        case "kind": kind
        case "at": at
        case "startedAt": startedAt
        case "heartbeat": heartbeat
        case "missedEvents": missedEvents
        default: nil
        }
    }
}
