/// The viewer's habits to do today (US 01.07): those planned for today's weekday that have started.
public struct TodayHabits: Sendable, Hashable {
    /// Today in the viewer's time zone (a day number).
    public var day: Int
    /// The viewer's time zone, in which `day` is today.
    public var timeZoneName: String
    /// The habits, oldest first.
    public var entries: [TodayHabit]
}

/// One habit planned for today and whether it is done.
public struct TodayHabit: Sendable, Hashable {
    /// The habit.
    public var habit: HabitRecord
    /// Whether at least one of its events counts for today.
    public var isDoneToday: Bool
}
