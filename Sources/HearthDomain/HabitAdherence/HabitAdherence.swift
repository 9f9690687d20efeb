import Support

/// How closely a habit's plan has been followed (US 01.08): shares of planned days kept, streaks
/// and a weekly series, computed from the plan and the local days with at least one event.
///
/// The definitions, which the README repeats for client developers:
/// - A **planned day** is a local calendar day from `startsOn` on whose weekday is in the plan.
/// - A planned day is **kept** when at least one event of the habit counts for it (`occurredOn`).
///   An event on an unplanned day makes that day *done* (``isDoneToday``, a week's
///   ``AdherenceWeek/unplannedDaysDone``) but adds no planned day and no kept day: shares stay
///   between 0 and 1 and extra effort is shown, not used to hide a missed day.
/// - **Today rule**: today is *pending* until it is kept or over. A kept today counts (as planned
///   and kept); an unkept today counts as nothing yet, so at 8 am nothing is missed, and it only
///   becomes a missed planned day once the next day has begun. The *counted days* are therefore
///   `startsOn` through today when today is done, else through yesterday.
/// - ``shareSinceStart`` is kept ÷ planned over the counted days; ``shareLast30Days`` the same over
///   the counted days among the 30 calendar days ending today (today and the 29 before it). Both
///   are nil when there is no planned day to divide by (a habit that has not started, or whose
///   first planned day is today and still pending).
/// - A **streak** is a run of consecutive planned days, all kept. Unplanned days neither break nor
///   extend it; a pending today does not break it. ``currentStreak`` ends at the last counted
///   planned day (0 when that day was missed); ``bestStreak`` is the longest run ever.
/// - Days before `startsOn` and after today count for nothing (their events included).
public struct HabitAdherence: Sendable, Hashable {
    /// How long the "last 30 days" window is, today included.
    public static let recentWindowDays = 30

    /// The habit's plan and start.
    public let schedule: HabitSchedule
    /// Today, the local day the figures are computed for (a day number).
    public let today: Int
    /// Planned days kept, ascending (the days with an event that are planned, up to today).
    private let keptPlannedDays: [Int]
    /// Every local day from `startsOn` through today with at least one event.
    private let doneDays: Set<Int>

    /// The adherence of a habit with `schedule` on local day `today`, given the local days with at
    /// least one of its events (`doneDays`; any order, days outside `startsOn…today` are ignored).
    public init(schedule: HabitSchedule, today: Int, doneDays: some Sequence<Int>) {
        self.schedule = schedule
        self.today = today
        let done = Set(doneDays.lazy.filter { $0 >= schedule.startsOn && $0 <= today })
        self.doneDays = done
        keptPlannedDays = done.filter { schedule.isPlanned($0) }.sorted()
    }

    /// Whether today is a planned day (the habit has started and today's weekday is in the plan).
    public var isPlannedToday: Bool { schedule.isPlanned(today) }

    /// Whether at least one event counts for today, planned or not.
    public var isDoneToday: Bool { doneDays.contains(today) }

    /// The last counted day: today once it is done, else yesterday (the today rule).
    public var lastCountedDay: Int { isDoneToday ? today : today - 1 }

    /// Planned days from `startsOn` through the last counted day.
    public var plannedDays: Int { schedule.plannedDays(from: schedule.startsOn, through: lastCountedDay) }

    /// Planned days kept from `startsOn` through the last counted day.
    public var keptDays: Int { keptPlannedDays.count }

    /// Kept ÷ planned since `startsOn` (0…1); nil while there is no planned day yet.
    public var shareSinceStart: Double? { Self.share(kept: keptDays, planned: plannedDays) }

    /// The first day of the last-30-days window.
    public var recentWindowStart: Int { today - Self.recentWindowDays + 1 }

    /// Planned days among the counted days of the last 30 days.
    public var plannedDaysLast30Days: Int { schedule.plannedDays(from: recentWindowStart, through: lastCountedDay) }

    /// Kept days among the counted days of the last 30 days.
    public var keptDaysLast30Days: Int { keptPlannedDays.count { $0 >= recentWindowStart } }

    /// Kept ÷ planned over the last 30 days (0…1); nil when none of them was planned.
    public var shareLast30Days: Double? { Self.share(kept: keptDaysLast30Days, planned: plannedDaysLast30Days) }

    /// Consecutive kept planned days ending at the last counted planned day; 0 when it was missed.
    public var currentStreak: Int {
        let kept = Set(keptPlannedDays)
        var streak = 0
        var day = schedule.plannedDay(onOrBefore: lastCountedDay)
        while let planned = day, kept.contains(planned) {
            streak += 1
            day = schedule.plannedDay(before: planned)
        }
        return streak
    }

    /// The longest run of consecutive kept planned days since `startsOn`.
    public var bestStreak: Int {
        var best = 0
        var run = 0
        var previous: Int?
        for day in keptPlannedDays {
            run = previous != nil && schedule.plannedDay(before: day) == previous ? run + 1 : 1
            best = max(best, run)
            previous = day
        }
        return best
    }

    /// The last `count` ISO weeks (Monday to Sunday), oldest first, the current week last.
    public func weeks(_ count: Int) -> [AdherenceWeek] {
        let currentMonday = today - CivilCalendar.weekday(ofDayNumber: today)
        return (0..<max(count, 0)).reversed().map { back in week(startingOn: currentMonday - 7 * back) }
    }

    /// The ISO week starting on Monday `monday`.
    private func week(startingOn monday: Int) -> AdherenceWeek {
        let sunday = monday + 6
        let countedEnd = min(sunday, lastCountedDay)
        let planned = schedule.plannedDays(from: monday, through: countedEnd)
        var kept = 0
        var unplanned = 0
        for day in monday...sunday where doneDays.contains(day) {
            if schedule.isPlanned(day) { kept += 1 } else { unplanned += 1 }
        }
        return AdherenceWeek(startsOn: monday, plannedDays: planned, keptDays: kept, unplannedDaysDone: unplanned)
    }

    /// `kept / planned`, nil for no planned day.
    static func share(kept: Int, planned: Int) -> Double? {
        planned == 0 ? nil : Double(kept) / Double(planned)
    }
}
