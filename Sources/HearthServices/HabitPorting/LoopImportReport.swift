/// What an import of a Loop Habit Tracker export did: counts of what it created and found
/// already imported, and every habit or row it left out or shortened, with why.
public struct LoopImportReport: Codable, Sendable, Equatable {
    /// A habit or a row that was not imported.
    public struct Skip: Codable, Sendable, Equatable {
        /// Why.
        public enum Reason: String, Codable, Sendable, Equatable {
            /// The habit's frequency is not two positive numbers.
            case unsupportedFrequency = "UNSUPPORTED_FREQUENCY"
            /// The habit's name is no title once made one line (empty, or not text).
            case invalidName = "INVALID_NAME"
            /// Another habit of the export has the same name (the first one is imported).
            case duplicateName = "DUPLICATE_NAME"
            /// A checkmark row whose date or value cannot be read.
            case unreadableRow = "UNREADABLE_ROW"
            /// A done day after today in the user's time zone (events record what was done).
            case futureDay = "FUTURE_DAY"
        }

        /// The habit's name in Loop.
        public var habitName: String
        /// The row's day, for a row.
        public var date: String?
        /// Why it was skipped.
        public var reason: Reason
        /// How many done days (events) were left out with it.
        public var eventsSkipped: Int
    }

    /// A habit imported with something changed to fit Hearth's rules (``LoopHabitMapping``).
    public struct Adjustment: Codable, Sendable, Equatable {
        /// What was changed.
        public enum Reason: String, Codable, Sendable, Equatable {
            /// The name was shortened to the 20 characters of a title, ending in "…".
            case titleShortened = "TITLE_SHORTENED"
            /// The question was shortened to the 30 characters of a reason (or left out).
            case reasonShortened = "REASON_SHORTENED"
            /// Notes were shortened to the 20 characters of a comment, or left out (``count`` says how many).
            case commentsShortened = "COMMENTS_SHORTENED"
            /// Loop's frequency is not daily: the weekly plan was chosen from the history
            /// (``storedAs`` lists its weekdays).
            case planChosen = "PLAN_CHOSEN"
        }

        /// The habit's name in Loop.
        public var habitName: String
        /// What was shortened.
        public var reason: Reason
        /// The title or reason as stored, the plan's weekdays (`MONDAY WEDNESDAY`), or nil for comments.
        public var storedAs: String?
        /// How many texts were shortened.
        public var count: Int
    }

    /// Habits created by this import.
    public var habitsCreated = 0
    /// The ids of the habits created, in the export's order.
    public var createdHabitIDs: [String] = []
    /// Habits an earlier import created already (kept as they are).
    public var habitsUnchanged = 0
    /// Events created by this import.
    public var eventsCreated = 0
    /// Events an earlier import created already.
    public var eventsUnchanged = 0
    /// Done days not imported (those of skipped habits, unreadable rows, days after today).
    public var eventsSkipped = 0
    /// The habits and rows left out, with why (at most ``maximumListed``; ``skipped`` counts go on in ``eventsSkipped``).
    public var skipped: [Skip] = []
    /// The habits imported with a text shortened.
    public var adjustments: [Adjustment] = []

    /// The most skipped rows listed one by one.
    public static let maximumListed = 100

    /// An empty report.
    public init() {}
}
