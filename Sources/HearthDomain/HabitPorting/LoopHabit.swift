/// One habit of a Loop Habit Tracker export, as its `Habits.csv` row and checkmark file give it.
public struct LoopHabit: Sendable, Equatable {
    /// The position column (`001`, `002`, …): names the habit's folder (`001 Meditate/`).
    public var position: String
    /// The habit's name, as written.
    public var name: String
    /// The question Loop asks ("Did you meditate today?"), or an older export's description.
    public var question: String
    /// Loop's frequency: `numerator` times every `denominator` days (1/1 daily, 3/7 three times a week).
    public var numerator: Int
    /// See ``numerator``.
    public var denominator: Int
    /// A measurable habit (`Type` NUMERICAL): any positive value counts as done.
    public var isNumerical: Bool
    /// The checkmarks of its history, oldest first.
    public var checkmarks: [LoopCheckmark]

    /// A habit from its parts.
    public init(
        position: String, name: String, question: String, numerator: Int, denominator: Int, isNumerical: Bool = false,
        checkmarks: [LoopCheckmark] = []
    ) {
        self.position = position
        self.name = name
        self.question = question
        self.numerator = numerator
        self.denominator = denominator
        self.isNumerical = isNumerical
        self.checkmarks = checkmarks
    }
}

/// One day of a Loop habit's history.
public struct LoopCheckmark: Sendable, Equatable {
    /// Loop's entry values (`Entry.kt`): what a boolean habit's day holds.
    public enum Value: Sendable, Equatable {
        /// Done (`YES_MANUAL`, 2): the only value that becomes a habit event.
        case yesManual
        /// Not done but not due, by the frequency (`YES_AUTO`, 1).
        case yesAuto
        /// Not done (`NO`, 0).
        case no
        /// Nothing recorded (`UNKNOWN`, -1).
        case unknown
        /// Skipped on purpose (`SKIP`, 3; -3 in some older versions).
        case skip
        /// A measurable habit's amount (Loop stores thousandths; exports write either).
        case amount(Double)
    }

    /// The day, `YYYY-MM-DD`.
    public var date: String
    /// What the day holds.
    public var value: Value
    /// The day's note (Loop 2.1 and later), empty when none.
    public var notes: String

    /// A checkmark from its parts.
    public init(date: String, value: Value, notes: String = "") {
        self.date = date
        self.value = value
        self.notes = notes
    }

    /// Whether the day counts as done: `YES_MANUAL`, or a positive amount of a measurable habit.
    public var isDone: Bool {
        switch value {
        case .yesManual: true
        case .amount(let amount): amount > 0
        case .yesAuto, .no, .unknown, .skip: false
        }
    }

    /// The value a checkmark file writes: a number (`2`, `-1`, `1.5`) or, in newer exports, the
    /// constant's name (`YES_MANUAL`). `nil` for anything else.
    public static func value(_ text: String, isNumerical: Bool) -> Value? {
        switch text.uppercased() {
        case "YES_MANUAL", "YES": return .yesManual
        case "YES_AUTO": return .yesAuto
        case "NO": return .no
        case "UNKNOWN", "": return .unknown
        case "SKIP": return .skip
        default: break
        }
        guard let number = Double(text), number.isFinite else { return nil }
        if isNumerical { return .amount(number) }
        switch number {
        case 2: return .yesManual
        case 1: return .yesAuto
        case 0: return .no
        case -1: return .unknown
        case 3, -3: return .skip
        default: return nil
        }
    }
}
