import Foundation
import HearthDomain
import Testing

/// Hand-picked cases of RFC 5545's rules and of time zones with unusual transitions; the
/// expected instants were checked against python-dateutil with zoneinfo.
struct RecurrenceRuleTests {
    typealias T = RecurrenceTesting

    @Test func aYearlyRuleOnFebruary29OccursInLeapYearsOnly() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20240229T090000", "RRULE:FREQ=YEARLY")
        #expect(T.first(4, of: rule) == ["2024-02-29T08:00:00Z", "2028-02-29T08:00:00Z", "2032-02-29T08:00:00Z", "2036-02-29T08:00:00Z"])
    }

    @Test func aNegativeMonthDayCountsFromTheEndOfEachMonth() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260131T180000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1")
        #expect(T.first(4, of: rule) == ["2026-01-31T17:00:00Z", "2026-02-28T17:00:00Z", "2026-03-31T16:00:00Z", "2026-04-30T16:00:00Z"])
    }

    @Test func theThirtyFirstSkipsShorterMonths() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260131T180000", "RRULE:FREQ=MONTHLY")
        #expect(T.first(3, of: rule) == ["2026-01-31T17:00:00Z", "2026-03-31T16:00:00Z", "2026-05-31T16:00:00Z"])
    }

    @Test func setPositionMinusOnePicksTheLastWeekdayOfEachMonth() throws {
        let rule = try T.rule(
            "DTSTART;TZID=America/New_York:20260130T170000", "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
        #expect(
            T.first(5, of: rule) == [
                "2026-01-30T22:00:00Z", "2026-02-27T22:00:00Z", "2026-03-31T21:00:00Z", "2026-04-30T21:00:00Z", "2026-05-29T21:00:00Z",
            ])
    }

    @Test func anOrdinalWeekdayPicksTheLastFridayOfTheMonth() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260130T160000", "RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3")
        #expect(T.first(5, of: rule) == ["2026-01-30T15:00:00Z", "2026-02-27T15:00:00Z", "2026-03-27T15:00:00Z"])
    }

    @Test func anExcludedOccurrenceStillCountsTowardsCount() throws {
        let rule = try T.rule(
            "DTSTART;TZID=Europe/Berlin:20260601T070000", "RRULE:FREQ=DAILY;COUNT=5", "EXDATE;TZID=Europe/Berlin:20260603T070000")
        #expect(T.first(10, of: rule) == ["2026-06-01T05:00:00Z", "2026-06-02T05:00:00Z", "2026-06-04T05:00:00Z", "2026-06-05T05:00:00Z"])
    }

    @Test func exceptionsMayNameTheInstantInUTCOrInAnotherZone() throws {
        let rule = try T.rule(
            "DTSTART;TZID=Europe/Berlin:20260601T070000", "RRULE:FREQ=DAILY;COUNT=4", "EXDATE:20260602T050000Z",
            "EXDATE;TZID=Europe/London:20260603T060000")
        #expect(T.first(10, of: rule) == ["2026-06-01T05:00:00Z", "2026-06-04T05:00:00Z"])
    }

    @Test func aTimeInTheSpringGapInBerlinMovesToTheSameInstantAsBeforeTheGap() throws {
        // 02:30 does not exist on 29 March 2026: it is read with the offset before the gap
        // (+01:00), which is 03:30 CEST.
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260328T023000", "RRULE:FREQ=DAILY")
        #expect(T.first(3, of: rule) == ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"])
    }

    @Test func anAmbiguousTimeInNewYorkIsItsFirstOccurrence() throws {
        let rule = try T.rule("DTSTART;TZID=America/New_York:20261031T013000", "RRULE:FREQ=DAILY")
        #expect(T.first(3, of: rule) == ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"])
    }

    @Test func lordHowesHalfHourGapAndOverlapFollowTheSameRules() throws {
        let spring = try T.rule("DTSTART;TZID=Australia/Lord_Howe:20261003T021500", "RRULE:FREQ=DAILY")
        #expect(T.first(3, of: spring) == ["2026-10-02T15:45:00Z", "2026-10-03T15:45:00Z", "2026-10-04T15:15:00Z"])
        let autumn = try T.rule("DTSTART;TZID=Australia/Lord_Howe:20260404T014500", "RRULE:FREQ=DAILY")
        #expect(T.first(3, of: autumn) == ["2026-04-03T14:45:00Z", "2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"])
    }

    @Test func apiasSkippedDayAndTheDayAfterItAreOneOccurrence() throws {
        // Samoa went from 29 December 2011 (-10:00) straight to 31 December (+14:00): 30 December
        // at 10:00 is read at -10:00, the same instant as 31 December at 10:00. COUNT counts both
        // wall-clock times, as python-dateutil does; the set holds the instant once.
        let rule = try T.rule("DTSTART;TZID=Pacific/Apia:20111228T100000", "RRULE:FREQ=DAILY;COUNT=5")
        #expect(T.first(6, of: rule) == ["2011-12-28T20:00:00Z", "2011-12-29T20:00:00Z", "2011-12-30T20:00:00Z", "2011-12-31T20:00:00Z"])
    }

    @Test func kathmandusQuarterHourOffsetIsKept() throws {
        let rule = try T.rule("DTSTART;TZID=Asia/Kathmandu:20260101T080000", "RRULE:FREQ=WEEKLY")
        #expect(T.first(2, of: rule) == ["2026-01-01T02:15:00Z", "2026-01-08T02:15:00Z"])
    }

    @Test func theWallClockTimeStaysPutAcrossDaylightSavingTime() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260323T090000", "RRULE:FREQ=WEEKLY;BYDAY=MO")
        #expect(T.first(2, of: rule) == ["2026-03-23T08:00:00Z", "2026-03-30T07:00:00Z"])
    }

    @Test func aStartWithoutZoneIsLocalTimeInTheDefaultZoneAndZIsUTC() throws {
        let local = try T.rule("DTSTART:20260601T090000", "RRULE:FREQ=DAILY", defaultZone: "America/Sao_Paulo")
        #expect(T.first(1, of: local) == ["2026-06-01T12:00:00Z"])
        #expect(local.timeZone.identifier == "America/Sao_Paulo")
        let utc = try T.rule("DTSTART:20260601T090000Z", "RRULE:FREQ=DAILY", defaultZone: "America/Sao_Paulo")
        #expect(T.first(1, of: utc) == ["2026-06-01T09:00:00Z"])
    }

    @Test func aStartTheRuleWouldNotProduceIsStillTheFirstOccurrenceAndCounts() throws {
        // RFC 5545 §3.3.10: "The DTSTART property value always counts as the first occurrence."
        // 3 June 2026 is a Wednesday.
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260603T090000", "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3")
        #expect(T.first(5, of: rule) == ["2026-06-03T07:00:00Z", "2026-06-08T07:00:00Z", "2026-06-15T07:00:00Z"])
    }

    @Test func untilIsInclusiveAndADateMeansThroughThatDay() throws {
        let exact = try T.rule("DTSTART;TZID=Europe/Berlin:20260601T090000", "RRULE:FREQ=DAILY;UNTIL=20260603T070000Z")
        #expect(T.first(5, of: exact) == ["2026-06-01T07:00:00Z", "2026-06-02T07:00:00Z", "2026-06-03T07:00:00Z"])
        let day = try T.rule("DTSTART;TZID=Europe/Berlin:20260601T090000", "RRULE:FREQ=DAILY;UNTIL=20260602")
        #expect(T.first(5, of: day) == ["2026-06-01T07:00:00Z", "2026-06-02T07:00:00Z"])
        let local = try T.rule("DTSTART;TZID=Europe/Berlin:20260601T090000", "RRULE:FREQ=DAILY;UNTIL=20260602T085959")
        #expect(T.first(5, of: local) == ["2026-06-01T07:00:00Z"])
    }

    @Test func aRuleThatCanNeverMatchAgainEndsAfterItsStart() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260101T090000", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")
        #expect(T.first(3, of: rule) == ["2026-01-01T08:00:00Z"])
        #expect(rule.occurrences(after: T.utc("2026-01-02T00:00:00Z"), limit: 3).isEmpty)
        let daily = try T.rule("DTSTART;TZID=Europe/Berlin:20260101T090000", "RRULE:FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31")
        #expect(daily.occurrences(after: T.utc("2026-01-02T00:00:00Z"), limit: 3).isEmpty)
        let sixthMonday = try T.rule("DTSTART;TZID=Europe/Berlin:20260101T090000", "RRULE:FREQ=MONTHLY;INTERVAL=7;BYDAY=6MO")
        #expect(sixthMonday.occurrences(after: T.utc("2026-01-02T00:00:00Z"), limit: 3).isEmpty)
    }

    @Test func aRareRuleIsFoundDecadesAhead() throws {
        // February 29 on a Monday: 2044, 2072, 2112 (2100 is not a leap year).
        let rule = try T.rule("DTSTART;TZID=UTC:20440229T090000", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO")
        #expect(T.first(3, of: rule) == ["2044-02-29T09:00:00Z", "2072-02-29T09:00:00Z", "2112-02-29T09:00:00Z"])
    }

    @Test func occurrencesStartAtTheGivenTimeWithoutWalkingFromTheStart() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20000103T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH")
        #expect(
            T.texts(rule.occurrences(after: T.utc("2026-06-01T07:00:00Z"), limit: 3)) == [
                "2026-06-01T07:00:00Z", "2026-06-04T07:00:00Z", "2026-06-15T07:00:00Z",
            ])
        #expect(T.texts(rule.occurrences(after: T.utc("2026-06-01T07:00:01Z"), limit: 1)) == ["2026-06-04T07:00:00Z"])
        #expect(rule.occurrences(after: T.utc("2026-06-01T00:00:00Z"), before: T.utc("2026-06-15T07:00:00Z"), limit: 10).count == 2)
    }

    @Test func countIsHonouredFromTheStartWhenAskingLater() throws {
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20260101T090000", "RRULE:FREQ=DAILY;COUNT=40")
        #expect(T.texts(rule.occurrences(after: T.utc("2026-02-08T00:00:00Z"), limit: 5)) == ["2026-02-08T08:00:00Z", "2026-02-09T08:00:00Z"])
        #expect(rule.occurrences(after: T.utc("2026-02-10T00:00:00Z"), limit: 5).isEmpty)
    }

    @Test func aWalkFromAnyOccurrenceOfALongIntervalWithCountFindsTheRest() throws {
        // Found by the mutation test: counting the skipped months jumped past the month asked for.
        let rule = try T.rule("DTSTART;TZID=Europe/Berlin:20020926T003633", "RRULE:FREQ=DAILY;INTERVAL=41;COUNT=11")
        let all = rule.occurrences(after: .distantPast, limit: 20)
        #expect(all.count == 11)
        for (index, date) in all.enumerated() {
            #expect(rule.occurrences(after: date, limit: 20) == Array(all[index...]))
        }
    }

    @Test func isOccurrenceAnswersForDueTimesOnly() throws {
        let rule = try T.rule(
            "DTSTART;TZID=Europe/Berlin:20260328T023000", "RRULE:FREQ=DAILY;COUNT=3", "EXDATE;TZID=Europe/Berlin:20260330T023000")
        #expect(rule.isOccurrence(T.utc("2026-03-29T01:30:00Z")))
        #expect(!rule.isOccurrence(T.utc("2026-03-29T01:30:01Z")))
        #expect(!rule.isOccurrence(T.utc("2026-03-30T00:30:00Z")))
        #expect(!rule.isOccurrence(T.utc("2026-03-29T01:30:00Z").addingTimeInterval(0.5)))
        #expect(rule.start == T.utc("2026-03-28T01:30:00Z"))
    }

    @Test func aLimitOfZeroOrLessAsksForNothing() throws {
        let rule = try T.rule("DTSTART:20260101T090000Z", "RRULE:FREQ=DAILY")
        #expect(rule.occurrences(after: .distantPast, limit: 0).isEmpty)
        #expect(rule.occurrences(after: .distantPast, limit: -1).isEmpty)
    }

    @Test func theSeriesEndsWithTheYear9999() throws {
        let rule = try T.rule("DTSTART:99991229T090000Z", "RRULE:FREQ=DAILY")
        #expect(T.first(5, of: rule) == ["9999-12-29T09:00:00Z", "9999-12-30T09:00:00Z", "9999-12-31T09:00:00Z"])
    }
}
