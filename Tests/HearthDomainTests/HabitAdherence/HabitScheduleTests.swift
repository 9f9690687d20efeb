@testable import HearthDomain
import Support
import Testing

/// A habit's planned days: which weekdays, from when, counted by whole weeks.
struct HabitScheduleTests {
    /// Monday 2026-11-30 as a day number.
    private let monday = CivilCalendar.dayNumber(year: 2026, month: 11, day: 30)

    @Test func countingPlannedDaysByWholeWeeksAgreesWithCountingDayByDayForEveryPlan() {
        for plan in 1...127 {
            for startOffset in 0..<7 {
                let schedule = HabitSchedule(plan: plan, startsOn: monday + startOffset)
                for first in (monday - 3)...(monday + 9) {
                    for length in 0...23 {
                        let last = first + length - 1
                        let expected = first > last ? 0 : (first...last).count { schedule.isPlanned($0) }
                        #expect(schedule.plannedDays(from: first, through: last) == expected, "plan \(plan) start +\(startOffset) \(first)…\(last)")
                    }
                }
            }
        }
    }

    @Test func bitZeroIsMondayAndBitSixIsSunday() {
        let mondays = HabitSchedule(plan: 1, startsOn: monday)
        let sundays = HabitSchedule(plan: 64, startsOn: monday)
        #expect(mondays.isPlanned(monday) && !mondays.isPlanned(monday + 6) && mondays.isPlanned(monday + 7))
        #expect(sundays.isPlanned(monday + 6) && !sundays.isPlanned(monday))
    }

    @Test func nothingIsPlannedBeforeTheStart() {
        let daily = HabitSchedule(plan: 127, startsOn: monday)
        #expect(!daily.isPlanned(monday - 1) && daily.isPlanned(monday))
        #expect(daily.plannedDays(from: monday - 30, through: monday - 1) == 0)
        #expect(daily.plannedDay(before: monday) == nil)
    }

    @Test func thePreviousPlannedDaySkipsUnplannedDays() {
        let mondayWednesdayFriday = HabitSchedule(plan: 0b10101, startsOn: monday - 7)
        #expect(mondayWednesdayFriday.plannedDay(before: monday) == monday - 3)
        #expect(mondayWednesdayFriday.plannedDay(before: monday + 2) == monday)
        #expect(mondayWednesdayFriday.plannedDay(onOrBefore: monday + 2) == monday + 2)
        #expect(mondayWednesdayFriday.plannedDay(onOrBefore: monday + 3) == monday + 2)
    }

    @Test func bitsAboveSundayAreIgnored() {
        #expect(HabitSchedule(plan: 128 | 1, startsOn: monday).plan == 1)
    }
}
