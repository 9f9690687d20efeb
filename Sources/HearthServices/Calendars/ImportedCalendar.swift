import FoundationEssentials
import HearthDomain

/// A calendar a user imported from an .ics file (FR-61), as the API shows it.
public struct ImportedCalendar: Codable, Sendable, Equatable {
    /// Its id (`icl_…`).
    public let id: String
    /// The name the user gave it, unique among their imported calendars regardless of case.
    public let name: String
    /// How many events (overrides of single occurrences included) the last import stored.
    public let eventCount: Int
    /// When it was first imported.
    public let createdAt: Date
    /// When a file was last imported into it.
    public let importedAt: Date

    /// The columns that decode a calendar (as its property names).
    static let columns = "id, name, event_count AS eventCount, created_at AS createdAt, imported_at AS importedAt"
}

/// One occurrence of an imported event in a range, with the event and calendar it belongs to.
public struct ImportedOccurrence: Sendable, Equatable {
    /// The stored event's id (`iev_…`); the occurrences of one series share it, an override has its own.
    public let eventID: String
    /// The calendar's id.
    public let calendarID: String
    /// When, what and whether busy.
    public let occurrence: CalendarOccurrence
}

/// The payload of `imported_calendar.imported` and `imported_calendar.deleted` (topic `user:<id>`).
struct ImportedCalendarChange: Codable, Sendable, ChangeSubjects {
    let calendarID: String
    let userID: String

    var touchedObjectIDs: [String] { [calendarID] }
}

extension EventKind {
    /// A file was imported into a calendar (new, or replacing its events).
    public static let importedCalendarImported: EventKind = "imported_calendar.imported"
    /// An imported calendar was deleted with its events.
    public static let importedCalendarDeleted: EventKind = "imported_calendar.deleted"
}
