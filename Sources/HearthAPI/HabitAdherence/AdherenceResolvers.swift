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
            try await adherence.todayHabits(viewer: try RequestContext.of(context).viewer()).entries.map(TodayHabitValue.init)
        }
        resolvers.resolveAsync("Habit", "adherence") { source, arguments, _, _ in
            let weeks = arguments.int("weeks") ?? defaultWeeks
            try adherence.checkWeeks(weeks)
            // The habit was read through the audience rule to get here.
            return HabitAdherenceValue(try await adherence.adherence(of: (source as! HabitValue).record), weeks: weeks)
        }
        resolvers.resolve("Habit", "sparklineUrl") { source, _, _, _ in
            adherence.sparklineURL(habitID: (source as! HabitValue).record.id)
        }
    }
}
