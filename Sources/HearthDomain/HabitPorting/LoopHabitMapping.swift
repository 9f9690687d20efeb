import Support

/// How a Loop Habit Tracker habit becomes a Hearth habit and its events: the documented rules of
/// `importLoopHabits` (README, "Importing from Loop Habit Tracker"). Every text is checked by
/// ``HabitRules``, the rules of `createHabit` and `recordHabitEvent`, so an imported habit is one
/// the API could have created.
///
/// - **Frequency → plan.** Loop says "n times every d days" (it has no weekday selection); a
///   Hearth plan is a set of weekdays. n ≥ d (daily, or more than once a day) plans every day,
///   as Loop means it. Anything else plans k weekdays, k being n × 7 / d rounded (1 to 6: every
///   other day 4, three times a week 3, monthly 1), chosen as the weekdays on which the history
///   shows the habit done most often (ties to the earlier weekday, Monday first; with no history
///   Monday, Tuesday, …). The history is kept whole either way; such a plan is reported
///   (`PLAN_CHOSEN`) so the user can adjust it. A frequency of no positive numbers is skipped
///   (`UNSUPPORTED_FREQUENCY`).
/// - **Name → title, question → reason, note → comment.** Made one line (line breaks, tabs and
///   other control characters become spaces, runs of spaces one, ends trimmed); one longer than
///   its limit (20, 30 and 20 characters, grapheme clusters) keeps its first characters (limit
///   − 1, trailing spaces dropped) and ends in "…"; every text made one line or shortened is
///   reported. A name that is still not
///   a title (empty, or a character stacking too many marks) skips the habit (`INVALID_NAME`); a
///   question or note that is not a reason or comment is left out (reported as shortened).
/// - **Checkmarks → events.** A done day (``LoopHabit/isDone(_:)``) becomes one event on that
///   calendar day; `YES_AUTO` (not due), `NO`, `UNKNOWN` and `SKIP` do not.
/// - **Start.** The habit starts on its first done day, or its first recorded day; with no
///   history at all, ``startsOn`` is nil and the importer starts it today in the user's time zone.
public struct LoopHabitMapping: Sendable, Equatable {
    /// Why a habit was not imported.
    public enum SkipReason: String, Error, Sendable, Equatable {
        /// Its frequency is not two positive numbers.
        case unsupportedFrequency = "UNSUPPORTED_FREQUENCY"
        /// Its name is no title once made one line and fitted (empty, or not text).
        case invalidName = "INVALID_NAME"
    }

    /// One event to record.
    public struct Event: Sendable, Equatable {
        /// The local calendar day it counts for.
        public let day: CalendarDay
        /// The comment (the day's note, fitted), empty when none.
        public let comment: String
    }

    /// The ellipsis a shortened text ends in.
    public static let ellipsis: Character = "…"

    /// The name as Loop wrote it.
    public let sourceName: String
    /// The title to store (a valid ``HabitRules/title(_:field:)``).
    public let title: String
    /// The reason to store (a valid ``HabitRules/reason(_:field:)``).
    public let reason: String
    /// The weekdays it is planned on.
    public let plan: WeekdayPlan
    /// Whether the plan was chosen from the history (Loop's frequency is not daily).
    public let planWasChosen: Bool
    /// The first day; nil for a habit without history (it starts on the importing user's today).
    public let startsOn: CalendarDay?
    /// The events, oldest first, one per done day.
    public let events: [Event]
    /// Whether the title was shortened.
    public let titleWasCut: Bool
    /// Whether the reason was shortened (or left out).
    public let reasonWasCut: Bool
    /// How many comments were shortened (or left out).
    public let commentsCut: Int

    /// The mapping of `habit`, or why it is skipped.
    public static func map(_ habit: LoopHabit) -> Result<LoopHabitMapping, SkipReason> {
        let (line, titleWasCut) = fitted(habit.name, to: HabitRules.maximumTitleLength)
        guard let title = try? HabitRules.title(line, field: "title") else { return .failure(.invalidName) }
        guard let (plan, planWasChosen) = plan(for: habit) else { return .failure(.unsupportedFrequency) }
        let (reason, reasonWasCut) = checked(habit.question, to: HabitRules.maximumReasonLength) { text throws(FieldProblem) in
            try HabitRules.reason(text, field: "reason")
        }
        var commentsCut = 0
        let events = habit.checkmarks.filter(habit.isDone).compactMap { checkmark -> Event? in
            guard let day = CalendarDay(checkmark.date) else { return nil }
            let (comment, wasCut) = checked(checkmark.notes, to: HabitRules.maximumCommentLength) { text throws(FieldProblem) in
                try HabitRules.comment(text, field: "comment")
            }
            if wasCut { commentsCut += 1 }
            return Event(day: day, comment: comment)
        }
        let startsOn = events.first?.day ?? habit.checkmarks.lazy.compactMap { CalendarDay($0.date) }.first
        return .success(LoopHabitMapping(
            sourceName: habit.name, title: title, reason: reason, plan: plan, planWasChosen: planWasChosen, startsOn: startsOn,
            events: events, titleWasCut: titleWasCut, reasonWasCut: reasonWasCut, commentsCut: commentsCut))
    }

    /// The weekday plan of a habit's frequency and whether it was chosen from the history, nil
    /// when the frequency is not two positive numbers (see the type's rules).
    static func plan(for habit: LoopHabit) -> (WeekdayPlan, Bool)? {
        let times = habit.numerator
        let days = habit.denominator
        guard times >= 1, days >= 1 else { return nil }
        if times >= days { return (WeekdayPlan(rawValue: 0b111_1111)!, false) }
        let weekdays = min(6, max(1, Int((Double(times) * 7 / Double(days)).rounded())))
        var doneOn = [Int](repeating: 0, count: 7)
        for checkmark in habit.checkmarks where habit.isDone(checkmark) {
            if let day = CalendarDay(checkmark.date) { doneOn[day.weekday.isoIndex] += 1 }
        }
        let chosen = (0..<7).sorted { doneOn[$0] != doneOn[$1] ? doneOn[$0] > doneOn[$1] : $0 < $1 }.prefix(weekdays)
        return (WeekdayPlan(rawValue: chosen.reduce(0) { $0 | 1 << $1 })!, true)
    }

    /// `text` fitted and checked by `rule`; `""` when the rule refuses it. The flag says whether
    /// anything of the one-line text was lost.
    private static func checked(
        _ text: String, to length: Int, by rule: (String) throws(FieldProblem) -> String
    ) -> (String, Bool) {
        let (line, wasCut) = fitted(text, to: length)
        guard let valid = try? rule(line) else { return ("", !line.isEmpty) }
        return (valid, wasCut)
    }

    /// `text` made one line (line breaks, tabs and other control characters become spaces, runs
    /// of whitespace one space, ends trimmed) and, when longer than `length` characters, cut to
    /// `length - 1` characters and ``ellipsis``. The flag says whether it is other than `text`
    /// trimmed (made one line, or cut).
    static func fitted(_ text: String, to length: Int) -> (String, Bool) {
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
        guard line.count > length else { return (line, line != text.trimmingWhitespace()) }
        var cut = String(line.prefix(length - 1)).trimmingWhitespace()
        cut.append(ellipsis)
        return (cut, true)
    }
}
