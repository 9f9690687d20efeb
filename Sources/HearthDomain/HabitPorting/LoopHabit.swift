import Support

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
    /// A measurable habit (`Type` NUMERICAL): its days hold amounts (see ``isDone(_:)``).
    public var isNumerical: Bool
    /// A measurable habit's target (`Target Type`, `Target Value`), when the export has one.
    public var target: LoopTarget?
    /// The checkmarks of its history, oldest first.
    public var checkmarks: [LoopCheckmark]

    /// A habit from its parts.
    public init(
        position: String, name: String, question: String, numerator: Int, denominator: Int, isNumerical: Bool = false,
        target: LoopTarget? = nil, checkmarks: [LoopCheckmark] = []
    ) {
        self.position = position
        self.name = name
        self.question = question
        self.numerator = numerator
        self.denominator = denominator
        self.isNumerical = isNumerical
        self.target = target
        self.checkmarks = checkmarks
    }

    /// Whether `checkmark`'s day counts as done, as Loop shows it: `YES_MANUAL` for a yes-or-no
    /// habit; for a measurable one, an amount that meets the target (at least `Target Value` for
    /// `AT_LEAST`, at most it for `AT_MOST`), or any positive amount when the export names no target.
    public func isDone(_ checkmark: LoopCheckmark) -> Bool {
        switch checkmark.value {
        case .yesManual: return true
        case .amount(let thousandths):
            let amount = thousandths / 1000
            switch target {
            case .atLeast(let least)?: return amount >= least && amount > 0
            case .atMost(let most)?: return amount >= 0 && amount <= most
            case nil: return amount > 0
            }
        case .yesAuto, .no, .unknown, .skip: return false
        }
    }
}

/// A measurable Loop habit's daily target (`Habits.csv` `Target Type` and `Target Value`, in the
/// habit's unit).
public enum LoopTarget: Sendable, Equatable {
    /// `AT_LEAST`: the day is done when its amount reaches the value.
    case atLeast(Double)
    /// `AT_MOST`: the day is done when an amount was entered and stays at or below the value.
    case atMost(Double)

    /// The target of a `Habits.csv` row's `Target Type` and `Target Value`, nil when either is
    /// missing or unreadable (older exports, yes-or-no habits).
    public init?(type: String, value: String) {
        guard let number = Double(value.trimmingWhitespace()), number.isFinite else { return nil }
        switch type.trimmingWhitespace().uppercased() {
        case "AT_LEAST": self = .atLeast(number)
        case "AT_MOST": self = .atMost(number)
        default: return nil
        }
    }
}

/// One day of a Loop habit's history.
public struct LoopCheckmark: Sendable, Equatable {
    /// Loop's entry values (`Entry.kt`): what a day holds.
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
        /// A measurable habit's amount as Loop writes it: thousandths of the unit (`5000` is 5 km).
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

    /// The value a checkmark file writes: a number (`2`, `-1`; exports before mid-2025) or the
    /// constant's name (`YES_MANUAL`, `NO`; `Entry.formattedValue` since), and for a measurable
    /// habit its amount in thousandths (`5000`). `nil` for anything else.
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
