@testable import HearthDomain
import Support
import Testing

/// US 01.08: shares of planned days kept, streaks and the weekly series, with the today rule.
struct HabitAdherenceTests {
    /// Day numbers of 2026 dates.
    private func d(_ month: Int, _ day: Int) -> Int { CivilCalendar.dayNumber(year: 2026, month: month, day: day) }
    /// Monday, Wednesday and Friday.
    private let mondayWednesdayFriday = 0b0010101
    private let daily = 0b1111111

    private func adherence(plan: Int, startsOn: Int, today: Int, done: [Int]) -> HabitAdherence {
        HabitAdherence(schedule: HabitSchedule(plan: plan, startsOn: startsOn), today: today, doneDays: done)
    }

    @Test func aHabitStartingInTheFutureHasNothingPlannedYet() {
        let a = adherence(plan: daily, startsOn: d(12, 10), today: d(12, 2), done: [d(12, 1), d(12, 2)])
        #expect(!a.isPlannedToday && !a.isDoneToday)
        #expect(a.plannedDays == 0 && a.keptDays == 0 && a.shareSinceStart == nil && a.shareLast30Days == nil)
        #expect(a.currentStreak == 0 && a.bestStreak == 0)
        #expect(a.weeks(2).allSatisfy { $0.plannedDays == 0 && $0.keptDays == 0 && $0.unplannedDaysDone == 0 && $0.share == nil })
    }

    @Test func todayIsPendingUntilDoneSoAHabitStartingTodayHasNoShareYet() {
        let pending = adherence(plan: mondayWednesdayFriday, startsOn: d(12, 2), today: d(12, 2), done: [])
        #expect(pending.isPlannedToday && !pending.isDoneToday)
        #expect(pending.plannedDays == 0 && pending.shareSinceStart == nil && pending.currentStreak == 0)
        let done = adherence(plan: mondayWednesdayFriday, startsOn: d(12, 2), today: d(12, 2), done: [d(12, 2)])
        #expect(done.isDoneToday && done.plannedDays == 1 && done.keptDays == 1 && done.shareSinceStart == 1)
        #expect(done.currentStreak == 1 && done.bestStreak == 1)
    }

    @Test func anUnkeptTodayNeitherLowersTheShareNorBreaksTheStreakButTomorrowItIsMissed() {
        // Started Monday 11-30; Monday kept; today is Wednesday, not done yet.
        let morning = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 30), today: d(12, 2), done: [d(11, 30)])
        #expect(morning.plannedDays == 1 && morning.keptDays == 1 && morning.shareSinceStart == 1 && morning.currentStreak == 1)
        let evening = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 30), today: d(12, 2), done: [d(11, 30), d(12, 2)])
        #expect(evening.plannedDays == 2 && evening.keptDays == 2 && evening.currentStreak == 2)
        // Thursday, Wednesday was never done: missed.
        let nextDay = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 30), today: d(12, 3), done: [d(11, 30)])
        #expect(nextDay.plannedDays == 2 && nextDay.keptDays == 1 && nextDay.shareSinceStart == 0.5)
        #expect(nextDay.currentStreak == 0 && nextDay.bestStreak == 1)
    }

    @Test func eventsOnUnplannedDaysCountAsDoneButNotAsPlannedOrKept() {
        // Tuesday 12-01 is off the plan.
        let a = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 30), today: d(12, 1), done: [d(11, 30), d(12, 1)])
        #expect(!a.isPlannedToday && a.isDoneToday)
        #expect(a.plannedDays == 1 && a.keptDays == 1 && a.shareSinceStart == 1)
        #expect(a.currentStreak == 1 && a.bestStreak == 1)
        let week = a.weeks(1)[0]
        #expect(week.plannedDays == 1 && week.keptDays == 1 && week.unplannedDaysDone == 1)
    }

    @Test func unplannedDaysNeitherBreakNorExtendAStreak() {
        // Mondays, Wednesdays, Fridays from 11-02: kept 11-02 … 11-13 (six planned days), missed
        // Monday 11-16, then kept 11-18, 11-20, 11-23, with events on unplanned days in between.
        let kept = [d(11, 2), d(11, 4), d(11, 6), d(11, 9), d(11, 11), d(11, 13), d(11, 18), d(11, 20), d(11, 23)]
        let extra = [d(11, 3), d(11, 14), d(11, 15), d(11, 17)]
        let a = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 2), today: d(11, 24), done: kept + extra)
        #expect(a.bestStreak == 6 && a.currentStreak == 3)
        #expect(a.plannedDays == 10 && a.keptDays == 9)
        // Tuesday 11-24 is unplanned: the streak still ends at Monday 11-23.
        let wednesday = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 2), today: d(11, 25), done: kept + extra)
        #expect(wednesday.currentStreak == 3)
        let thursday = adherence(plan: mondayWednesdayFriday, startsOn: d(11, 2), today: d(11, 26), done: kept + extra)
        #expect(thursday.currentStreak == 0 && thursday.bestStreak == 6)
    }

    @Test func theLastThirtyDaysAreTodayAndTheTwentyNineBefore() {
        // Daily since 59 days before today; kept the first 30 of them, none since.
        let today = d(12, 2)
        let a = adherence(plan: daily, startsOn: today - 59, today: today, done: Array((today - 59)...(today - 30)))
        #expect(a.plannedDays == 59 && a.keptDays == 30)
        #expect(a.plannedDaysLast30Days == 29 && a.keptDaysLast30Days == 0 && a.shareLast30Days == 0)
        #expect(a.shareSinceStart == 30.0 / 59.0)
        // The day 29 before today is the window's first, the day 30 before is not in it.
        let edge = adherence(plan: daily, startsOn: today - 59, today: today, done: [today - 30, today - 29, today])
        #expect(edge.plannedDaysLast30Days == 30 && edge.keptDaysLast30Days == 2)
    }

    @Test func daysBeforeTheStartAndAfterTodayCountForNothing() {
        let a = adherence(plan: daily, startsOn: d(12, 1), today: d(12, 2), done: [d(11, 30), d(12, 3), d(12, 1)])
        #expect(a.plannedDays == 1 && a.keptDays == 1 && !a.isDoneToday)
        #expect(a.weeks(1)[0].unplannedDaysDone == 0 && a.weeks(1)[0].keptDays == 1)
    }

    @Test func weeksAreISOWeeksOldestFirstAndAWeekStraddlingTheStartCountsFromTheStart() {
        // Started Wednesday 12-02; today is Sunday 12-06 (not done); Wednesday and Friday kept.
        let a = adherence(plan: mondayWednesdayFriday, startsOn: d(12, 2), today: d(12, 6), done: [d(12, 2), d(12, 4)])
        let weeks = a.weeks(3)
        #expect(weeks.map(\.startsOn) == [d(11, 16), d(11, 23), d(11, 30)])
        #expect(weeks.map(\.endsOn) == [d(11, 22), d(11, 29), d(12, 6)])
        #expect(weeks[0].plannedDays == 0 && weeks[0].share == nil && weeks[1].plannedDays == 0)
        #expect(weeks[2].plannedDays == 2 && weeks[2].keptDays == 2 && weeks[2].share == 1)
        #expect(a.weeks(0).isEmpty)
    }

    @Test func theCurrentWeekCountsOnlyTheDaysSoFar() {
        // Daily since long ago; today Wednesday 12-02, Monday kept, Tuesday missed, today pending.
        let a = adherence(plan: daily, startsOn: d(1, 1), today: d(12, 2), done: [d(11, 30)])
        let week = a.weeks(1)[0]
        #expect(week.startsOn == d(11, 30) && week.plannedDays == 2 && week.keptDays == 1 && week.share == 0.5)
    }

    @Test func aWeekAcrossADaylightSavingChangeStillHasSevenCalendarDays() {
        // Europe's clocks went back on Sunday 2026-10-25: days are calendar days, not 24-hour blocks.
        let a = adherence(plan: daily, startsOn: d(10, 1), today: d(10, 26), done: Array(d(10, 19)...d(10, 25)))
        let week = a.weeks(2)[0]
        #expect(week.startsOn == d(10, 19) && week.plannedDays == 7 && week.keptDays == 7)
        #expect(a.currentStreak == 7)
    }

    @Test func aHabitStartedYearsAgoCountsWithoutWalkingEveryDay() {
        let start = CivilCalendar.dayNumber(year: 1900, month: 1, day: 1)
        let a = adherence(plan: daily, startsOn: start, today: d(12, 2), done: [d(12, 1), d(12, 2)])
        #expect(a.plannedDays == d(12, 2) - start + 1 && a.keptDays == 2 && a.currentStreak == 2 && a.bestStreak == 2)
    }
}
