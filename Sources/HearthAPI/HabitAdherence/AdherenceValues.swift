import GraphQL
import HearthDomain
import HearthServices

/// A `TodayHabit` of `schema.graphql`.
struct TodayHabitValue: Sendable, FieldResolvable {
    let entry: TodayHabit
    /// The entry's habit, in the batch of the day's list.
    let habit: HabitValue

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "habit": habit
        case "isDoneToday": entry.isDoneToday
        default: nil
        }
    }
}

/// A `HabitAdherence` of `schema.graphql`: the figures and a series of `weeks` weeks.
struct HabitAdherenceValue: Sendable, FieldResolvable {
    let adherence: HabitAdherence
    let weeks: Int

    init(_ adherence: HabitAdherence, weeks: Int) {
        self.adherence = adherence
        self.weeks = weeks
    }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "today": CalendarDay(dayNumber: adherence.today)
        case "isPlannedToday": adherence.isPlannedToday
        case "isDoneToday": adherence.isDoneToday
        case "plannedDays": adherence.plannedDays
        case "keptDays": adherence.keptDays
        case "shareSinceStart": adherence.shareSinceStart
        case "plannedDaysLast30Days": adherence.plannedDaysLast30Days
        case "keptDaysLast30Days": adherence.keptDaysLast30Days
        case "shareLast30Days": adherence.shareLast30Days
        case "currentStreak": adherence.currentStreak
        case "bestStreak": adherence.bestStreak
        case "weeks": adherence.weeks(weeks).map(AdherenceWeekValue.init)
        default: nil
        }
    }
}

/// A `HabitAdherenceWeek` of `schema.graphql`.
struct AdherenceWeekValue: Sendable, FieldResolvable {
    let week: AdherenceWeek

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "startsOn": CalendarDay(dayNumber: week.startsOn)
        case "endsOn": CalendarDay(dayNumber: week.endsOn)
        case "plannedDays": week.plannedDays
        case "keptDays": week.keptDays
        case "share": week.share
        case "unplannedDaysDone": week.unplannedDaysDone
        default: nil
        }
    }
}
