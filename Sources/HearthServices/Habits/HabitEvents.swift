extension EventKind {
    /// A habit was created (US 01.01), on its owner's topic.
    public static let habitCreated: EventKind = "habit.created"
    /// A habit's details changed (US 01.04).
    public static let habitUpdated: EventKind = "habit.updated"
    /// A habit was deleted with its events and their photos (US 01.05).
    public static let habitDeleted: EventKind = "habit.deleted"
    /// A habit event was recorded (US 02.01).
    public static let habitEventRecorded: EventKind = "habit_event.recorded"
    /// A habit event changed (US 02.05).
    public static let habitEventUpdated: EventKind = "habit_event.updated"
    /// A habit event was deleted with its photo (US 02.06).
    public static let habitEventDeleted: EventKind = "habit_event.deleted"
}

/// The payload of every habit and habit event event, published on the owner's topic
/// (`user:<id>`): whose, which habit, and which event, so a device, a sync client or a follower's
/// feed knows what to read again.
public struct HabitChange: Codable, Sendable, Equatable {
    /// The owner.
    public var userID: String
    /// The habit concerned (the event's habit for an event).
    public var habitID: String
    /// The event concerned, for habit event changes.
    public var eventID: String?

    /// Creates a payload.
    public init(userID: String, habitID: String, eventID: String? = nil) {
        self.userID = userID
        self.habitID = habitID
        self.eventID = eventID
    }
}

extension HabitChange: ChangeSubjects {
    /// The event (for event changes) and the habit, whose "done today" and counts follow its events.
    public var touchedObjectIDs: [String] { [eventID, habitID].compactMap(\.self) }
}
