import Foundation
@testable import HearthDomain
import Support
import Testing

/// The periods of leaderboards and scoreboards (FR-56, FR-57): calendar weeks and months in a time
/// zone, and how boards rank and share.
struct ScoreWindowTests {
    private let utc = TimeZoneRules.utc

    /// The instant of local time `year`-`month`-`day` `hour`:`minute` in `zone`.
    private func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, in zone: TimeZoneRules) -> Date {
        var hint = 0
        let local = CivilCalendar.dayNumber(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
        return Date(timeIntervalSince1970: TimeInterval(zone.instant(forLocal: local, hint: &hint)))
    }

    private func day(_ year: Int, _ month: Int, _ day: Int) -> Int {
        CivilCalendar.dayNumber(year: year, month: month, day: day)
    }

    @Test func weeksRunSevenDaysFromTheChosenFirstWeekday() {
        // Wednesday 2026-12-02.
        let now = instant(2026, 12, 2, 12, 0, in: utc)
        let monday = ScoreWindow(.week, containing: now, in: utc)
        #expect(monday.firstDay == day(2026, 11, 30) && monday.endDay == day(2026, 12, 7))
        let sunday = ScoreWindow(.week, containing: now, in: utc, firstWeekday: .sunday)
        #expect(sunday.firstDay == day(2026, 11, 29) && sunday.endDay == day(2026, 12, 6))
        let wednesday = ScoreWindow(.week, containing: now, in: utc, firstWeekday: .wednesday)
        #expect(wednesday.firstDay == day(2026, 12, 2))
        let thursday = ScoreWindow(.week, containing: now, in: utc, firstWeekday: .thursday)
        #expect(thursday.firstDay == day(2026, 11, 26) && thursday.contains(day: day(2026, 12, 2)) && !thursday.contains(day: day(2026, 12, 3)))
    }

    @Test func monthsRunFromTheFirstToTheLastDayAcrossTheYearsEnd() {
        let december = ScoreWindow(.month, containing: instant(2026, 12, 31, 23, 59, in: utc), in: utc)
        #expect(december.firstDay == day(2026, 12, 1) && december.endDay == day(2027, 1, 1))
        let february = ScoreWindow(.month, containing: instant(2028, 2, 29, 0, 0, in: utc), in: utc)
        #expect(february.endDay == day(2028, 3, 1))
    }

    @Test func daysAndBoundsAreLocalToTheZoneNotUTC() throws {
        let newYork = try #require(TimeZoneRules.named("America/New_York"))
        // 23:59 on 31 January in New York is already 1 February in UTC; 00:01 on 1 February is the next month there.
        let late = instant(2027, 1, 31, 23, 59, in: newYork)
        let early = instant(2027, 2, 1, 0, 1, in: newYork)
        #expect(ScoreWindow.day(of: late, in: newYork) == day(2027, 1, 31) && ScoreWindow.day(of: late, in: utc) == day(2027, 2, 1))
        let january = ScoreWindow(.month, containing: late, in: newYork)
        #expect(january.contains(day: ScoreWindow.day(of: late, in: newYork)) && !january.contains(day: ScoreWindow.day(of: early, in: newYork)))
        #expect(january.start == instant(2027, 1, 1, 0, 0, in: newYork) && january.end == instant(2027, 2, 1, 0, 0, in: newYork))
        #expect(january.end == Date(timeIntervalSince1970: TimeInterval(day(2027, 2, 1) * 86_400 + 5 * 3600)))
        #expect(january.isCurrent(at: late) && !january.isCurrent(at: early))
        // A week across the spring-forward night is 167 hours long, and starts at local midnight.
        let week = ScoreWindow(.week, containing: instant(2027, 3, 10, 9, 0, in: newYork), in: newYork)
        #expect(try #require(week.end).timeIntervalSince(try #require(week.start)) == 167 * 3600)
    }

    @Test func allTimeHasNoBounds() {
        let ever = ScoreWindow(.allTime, containing: Date(), in: utc)
        #expect(ever.firstDay == nil && ever.start == nil && ever.contains(day: -5_000) && ever.isCurrent(at: .distantFuture))
    }

    @Test func equalCountsShareARankAndTheNextSkipsTheTiedPlaces() {
        #expect(ScoreRanking.ranks(ofDescending: [5, 5, 3]) == [1, 1, 3])
        #expect(ScoreRanking.ranks(ofDescending: [4, 3, 3, 3, 0]) == [1, 2, 2, 2, 5])
        #expect(ScoreRanking.ranks(ofDescending: [0, 0]) == [1, 1] && ScoreRanking.ranks(ofDescending: []).isEmpty)
    }

    @Test func sharesArePercentagesToTwoPlacesRoundedHalfUp() {
        #expect(ScoreRanking.percentage(1, of: 3).description == "33.33" && ScoreRanking.percentage(2, of: 3).description == "66.67")
        #expect(ScoreRanking.percentage(1, of: 8).description == "12.50" && ScoreRanking.percentage(3, of: 3).description == "100.00")
        #expect(ScoreRanking.percentage(0, of: 0).description == "0.00" && ScoreRanking.percentage(1, of: 200_000).description == "0.00")
    }
}
