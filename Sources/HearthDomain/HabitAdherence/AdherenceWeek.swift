/// One ISO week (Monday to Sunday) of a habit's weekly adherence series, in local days.
///
/// Counts follow ``HabitAdherence``'s rules: planned days are those of the plan from `startsOn`
/// through the last counted day (a pending today and days still to come are not counted yet), kept
/// days are planned days with an event, and days done off the plan are counted apart.
public struct AdherenceWeek: Sendable, Hashable {
    /// The week's Monday (a day number).
    public var startsOn: Int
    /// Planned days of the week counted so far.
    public var plannedDays: Int
    /// Of those, the days with at least one event.
    public var keptDays: Int
    /// Days of the week off the plan (from `startsOn`) with at least one event.
    public var unplannedDaysDone: Int

    /// A week's counts.
    public init(startsOn: Int, plannedDays: Int, keptDays: Int, unplannedDaysDone: Int) {
        self.startsOn = startsOn
        self.plannedDays = plannedDays
        self.keptDays = keptDays
        self.unplannedDaysDone = unplannedDaysDone
    }

    /// The week's last day, its Sunday.
    public var endsOn: Int { startsOn + 6 }

    /// Kept ÷ planned (0…1); nil for a week without a counted planned day.
    public var share: Double? { HabitAdherence.share(kept: keptDays, planned: plannedDays) }
}
