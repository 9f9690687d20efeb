import Support

/// How a Loop Habit Tracker habit becomes a Hearth habit and its events: the documented rules of
/// `importLoopHabits` (README, "Importing from Loop Habit Tracker").
///
/// - **Frequency → plan.** Loop says "n times every d days"; a Hearth plan is a set of weekdays.
///   Daily (d = 1, any n; or n = d) plans every day. n times a week (d = 7) plans the n
///   weekdays on which the history shows the habit done most often (ties to the earlier
///   weekday, Monday first; with no history Monday, Tuesday, …); n ≥ 7 plans every day.
///   Anything else (every other day, 3 in 14 days, monthly) has no weekly plan that keeps its
///   meaning: the habit and its history are skipped with reason `UNSUPPORTED_FREQUENCY`.
/// - **Name → title, question → reason.** One line each (line breaks and control characters
///   become spaces, runs of spaces one, ends trimmed), cut to at most ``titleLength`` and
///   ``reasonLength`` characters (grapheme clusters), and the cut reported. An empty name is
///   skipped (`INVALID_NAME`).
/// - **Checkmarks → events.** A day whose value is `YES_MANUAL` (or a positive amount of a
///   measurable habit) becomes one event on that day; `YES_AUTO` (not due), `NO`, `UNKNOWN` and
///   `SKIP` do not. The day's note becomes the event's comment (one line, cut to
///   ``commentLength`` characters; cuts are counted).
/// - **Start.** The habit starts on its first done day, or its first recorded day, or today.
public struct LoopHabitMapping: Sendable, Equatable {
    /// Why a habit was not imported.
    public enum SkipReason: String, Error, Sendable, Equatable {
        /// Its frequency has no weekly plan (see the type's rules).
        case unsupportedFrequency = "UNSUPPORTED_FREQUENCY"
        /// Its name is empty once made one line.
        case invalidName = "INVALID_NAME"
    }

    /// One event to record.
    public struct Event: Sendable, Equatable {
        /// The day, `YYYY-MM-DD`.
        public let date: String
        /// The comment (the day's note, cut to length), empty when none.
        public let comment: String
    }

    /// The longest title, reason and comment, in characters.
    public static let titleLength = 20
    /// See ``titleLength``.
    public static let reasonLength = 30
    /// See ``titleLength``.
    public static let commentLength = 20

    /// The name as Loop wrote it.
    public let sourceName: String
    /// The title to store.
    public let title: String
    /// The reason to store.
    public let reason: String
    /// The plan's weekday bits: bit 0 Monday … bit 6 Sunday.
    public let plan: Int
    /// The first day, `YYYY-MM-DD`.
    public let startsOn: String
    /// The events, oldest first, one per done day.
    public let events: [Event]
    /// Whether the title was cut to ``titleLength``.
    public let titleWasCut: Bool
    /// Whether the reason was cut to ``reasonLength``.
    public let reasonWasCut: Bool
    /// How many comments were cut to ``commentLength``.
    public let commentsCut: Int

    /// The mapping of `habit`, or why it is skipped. `today` is the importing user's day number.
    public static func map(_ habit: LoopHabit, today: Int) -> Result<LoopHabitMapping, SkipReason> {
        let (title, titleWasCut) = oneLine(habit.name, cutTo: titleLength)
        guard !title.isEmpty else { return .failure(.invalidName) }
        guard let plan = plan(for: habit) else { return .failure(.unsupportedFrequency) }
        let (reason, reasonWasCut) = oneLine(habit.question, cutTo: reasonLength)
        var commentsCut = 0
        let events = habit.checkmarks.filter(\.isDone).map { checkmark in
            let (comment, wasCut) = oneLine(checkmark.notes, cutTo: commentLength)
            if wasCut { commentsCut += 1 }
            return Event(date: checkmark.date, comment: comment)
        }
        let startsOn = events.first?.date ?? habit.checkmarks.first?.date ?? DayText.text(today)
        return .success(LoopHabitMapping(
            sourceName: habit.name, title: title, reason: reason, plan: plan, startsOn: startsOn, events: events,
            titleWasCut: titleWasCut, reasonWasCut: reasonWasCut, commentsCut: commentsCut))
    }

    /// Every day of the week.
    public static let everyDay = 0b111_1111

    /// The weekday plan of a habit's frequency, nil when it has none (see the type's rules).
    static func plan(for habit: LoopHabit) -> Int? {
        let times = habit.numerator
        let days = habit.denominator
        guard times >= 1, days >= 1 else { return nil }
        if days == 1 || times >= days { return everyDay }
        guard days == 7 else { return nil }
        var doneOn = [Int](repeating: 0, count: 7)
        for checkmark in habit.checkmarks where checkmark.isDone {
            if let day = DayText.dayNumber(checkmark.date) { doneOn[CivilCalendar.weekday(ofDayNumber: day)] += 1 }
        }
        let chosen = (0..<7).sorted { doneOn[$0] != doneOn[$1] ? doneOn[$0] > doneOn[$1] : $0 < $1 }.prefix(times)
        return chosen.reduce(0) { $0 | 1 << $1 }
    }

    /// `text` made one line (line breaks, tabs and other control characters become spaces,
    /// runs of whitespace one space, ends trimmed) and cut to `length` characters.
    static func oneLine(_ text: String, cutTo length: Int) -> (String, Bool) {
        var line = ""
        var pendingSpace = false
        for character in text {
            let isSpace = character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            if isSpace {
                pendingSpace = !line.isEmpty
                continue
            }
            if pendingSpace { line.append(" ") }
            pendingSpace = false
            line.append(character)
        }
        guard line.count > length else { return (line, false) }
        return (String(line.prefix(length)).trimmingWhitespace(), true)
    }
}
