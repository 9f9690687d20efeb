import GraphQL
import HearthDomain
import HearthServices

/// The resolvers of today's habits and the habit status indicators (US 01.07, US 01.08) over
/// ``HabitAdherenceService``: `todayHabits`, `Habit.adherence(weeks:)` and `Habit.sparklineUrl`.
enum AdherenceResolvers {
    /// The series' length when `weeks` is not given (the sparkline's).
    static let defaultWeeks = AdherenceSparkline.weekCount

    static func install(into resolvers: inout Resolvers, adherence: HabitAdherenceService) {
        resolvers.resolveAsync("Query", "todayHabits") { _, _, context, _ in
            let entries = try await adherence.todayHabits(viewer: try RequestContext.of(context).viewer()).entries
            let batch = HabitBatch()
            return entries.map { TodayHabitValue(entry: $0, habit: HabitValue(record: $0.habit, batch: batch)) }
        }
        resolvers.resolveField("Habit", "adherence") { source, arguments, _, _ in
            let weeks = arguments.int("weeks") ?? defaultWeeks
            try adherence.checkWeeks(weeks)
            // The habit was read through the audience rule to get here; the habits of its list load together.
            let habit = source as! HabitValue
            let load = habit.batch.adherence(of: habit.record, from: adherence)
            return .async {
                guard let figures = try await load() else { throw ServiceError(.notFound, "No such habit.") }
                return HabitAdherenceValue(figures, weeks: weeks)
            }
        }
        resolvers.resolve("Habit", "sparklineUrl") { source, _, _, _ in
            adherence.sparklineURL(habitID: (source as! HabitValue).record.id)
        }
    }
}
