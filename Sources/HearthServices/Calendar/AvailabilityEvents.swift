extension EventKind {
    /// An availability event was created (FR-64), on its owner's topic.
    public static let availabilityEventCreated: EventKind = "availability_event.created"
    /// An availability event changed.
    public static let availabilityEventUpdated: EventKind = "availability_event.updated"
    /// An availability event was deleted (a tombstone remains).
    public static let availabilityEventDeleted: EventKind = "availability_event.deleted"
}

/// The payload of every availability event change, on the owner's topic (`user:<id>`): whose and
/// which event, so the owner's devices and offline sync know what to read again.
public struct AvailabilityEventChange: Codable, Sendable, Equatable {
    /// The owner.
    public var userID: String
    /// The event concerned.
    public var eventID: String
}

extension AvailabilityEventChange: ChangeSubjects {
    /// The event.
    public var touchedObjectIDs: [String] { [eventID] }
}
