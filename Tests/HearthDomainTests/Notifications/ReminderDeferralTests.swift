import FoundationEssentials
import HearthDomain
import Testing

/// When a held-back reminder may reach someone (FR-50, FR-50A, FR-50B): the first instant free of
/// quiet hours and busy periods before its deadline, and busy periods merged from any source.
@Suite struct ReminderDeferralTests {
    private let zero = Date(timeIntervalSince1970: 1_799_971_200)  // 2027-01-15T00:00:00Z, a UTC midnight

    private func at(_ hours: Double) -> Date {
        zero.addingTimeInterval(hours * 3600)
    }

    private func busy(_ spans: (Double, Double)...) -> [BusyPeriod] {
        BusyPeriod.merging(spans.map { BusyPeriod(start: at($0.0), end: at($0.1)) })
    }

    @Test func busyPeriodsOfSeveralSourcesMergeWhereTheyOverlapOrTouch() {
        #expect(busy((9, 10), (12, 13), (9.5, 11), (11, 11.5), (14, 14)) == [
            BusyPeriod(start: at(9), end: at(11.5)), BusyPeriod(start: at(12), end: at(13)),
        ])
        let periods = busy((9, 10), (12, 13))
        #expect(BusyPeriod.end(ofPeriodContaining: at(9), in: periods) == at(10), "the start is busy")
        #expect(BusyPeriod.end(ofPeriodContaining: at(10), in: periods) == nil, "the end is free")
        #expect(BusyPeriod.end(ofPeriodContaining: at(12.5), in: periods) == at(13))
        #expect(BusyPeriod.end(ofPeriodContaining: at(8), in: periods) == nil)
        #expect(BusyPeriod.end(ofPeriodContaining: at(20), in: []) == nil)
    }

    @Test func aFreeReminderGoesNow() {
        #expect(ReminderDeferral.decide(at: at(8), before: at(12), quietHours: nil, in: .utc, busy: busy((9, 10))) == .now)
        #expect(ReminderDeferral.decide(at: at(12), before: at(12), quietHours: nil, in: .utc, busy: []) == .now, "at due time, free")
    }

    @Test func aBusyReminderWaitsForTheNextFreeInstantBeforeTheDeadlineOrIsSkipped() {
        #expect(ReminderDeferral.decide(at: at(9.5), before: at(12), quietHours: nil, in: .utc, busy: busy((9, 10), (10, 11)))
            == .delay(until: at(11), cause: .busy))
        #expect(ReminderDeferral.decide(at: at(9.5), before: at(11), quietHours: nil, in: .utc, busy: busy((9, 11))) == .skip(cause: .busy),
                "free only at the deadline: too late")
        #expect(ReminderDeferral.decide(at: at(12), before: at(12), quietHours: nil, in: .utc, busy: busy((11, 13))) == .skip(cause: .busy),
                "a reminder at due time has no time to wait")
    }

    @Test func quietHoursAndBusyTimeTakeTurnsUntilBothAreOver() {
        // Quiet 22:00–07:00, then a meeting 07:00–08:30: the reminder at 23:00 goes at 08:30.
        let quiet = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60)
        #expect(ReminderDeferral.decide(at: at(23), before: at(36), quietHours: quiet, in: .utc, busy: busy((31, 32.5)))
            == .delay(until: at(32.5), cause: .busy))
        // A meeting ending inside quiet hours: the quiet hours end last.
        #expect(ReminderDeferral.decide(at: at(21), before: at(36), quietHours: quiet, in: .utc, busy: busy((21, 23)))
            == .delay(until: at(31), cause: .quietHours))
        #expect(ReminderDeferral.decide(at: at(21), before: at(30), quietHours: quiet, in: .utc, busy: busy((21, 23))) == .skip(cause: .quietHours))
    }

    @Test func aHabitReminderFiresOnPlannedDaysOnTheLocalWallClock() throws {
        let berlin = try #require(TimeZoneRules.named("Europe/Berlin"))
        // 2027-03-26 is a Friday; summer time starts Sunday 2027-03-28.
        let friday = try #require(CalendarDay("2027-03-26"))
        let plan = try WeekdayPlan([.friday, .sunday], field: "plan")
        let time = HabitReminderTime(minute: 7 * 60 + 30, schedule: HabitSchedule(plan, startsOn: friday), zone: berlin)
        let fridayAt = Date(timeIntervalSince1970: 1806042600)  // 2027-03-26T06:30:00Z
        #expect(time.instant(onDay: friday.dayNumber) == fridayAt)
        let first = try #require(time.next(fromDay: friday.dayNumber, notBefore: fridayAt))
        #expect(first.day == friday.dayNumber && first.at == fridayAt, "on the minute itself")
        let sunday = try #require(time.next(fromDay: friday.dayNumber, notBefore: fridayAt.addingTimeInterval(1)))
        #expect(sunday.day == friday.dayNumber + 2 && sunday.at == Date(timeIntervalSince1970: 1806211800), "07:30 in summer time")
    }
}
