import HearthDomain

/// What `GET /export/…` answers: everything of the signed-in user's habits, habit events and
/// follows (README, "Exporting your habits").
public enum HabitExportFormat: String, Sendable, CaseIterable {
    /// One JSON document: the user, habits, events (with their photos' metadata and places) and follows.
    case json = "habits.json"
    /// The habits, one CSV record each.
    case habitsCSV = "habits.csv"
    /// The habit events, one CSV record each.
    case eventsCSV = "habit-events.csv"
    /// The follows in both directions, one CSV record each.
    case followsCSV = "follows.csv"
    /// A zip archive of the JSON document, the three CSV files and every photo (`photos/<id>.<ext>`).
    case zip = "habits.zip"

    /// The file name the download suggests (`Content-Disposition`).
    public var fileName: String { rawValue }

    /// The response's media type.
    public var mediaType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .habitsCSV, .eventsCSV, .followsCSV: CSVRecord.mediaType
        case .zip: "application/zip"
        }
    }
}
