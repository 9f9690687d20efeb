import FoundationEssentials
import HearthDomain
import Testing

struct CalendarDayTests {
    @Test func daysReadAndWriteAsYearMonthDay() throws {
        let day = try #require(CalendarDay("2024-02-29"))
        #expect(day.description == "2024-02-29" && day.weekday == .thursday)
        #expect(CalendarDay("1970-01-01")?.dayNumber == 0)
        #expect(CalendarDay(dayNumber: day.dayNumber + 1).description == "2024-03-01")
        #expect(CalendarDay("0001-01-01")?.description == "0001-01-01")
    }

    @Test(arguments: ["2025-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "2026-01-1", "26-01-01", "2026/01/01", "0000-01-01", "", "2026-01-01T00:00"])
    func anythingElseIsNoDay(text: String) {
        #expect(CalendarDay(text) == nil)
    }

    @Test func theDayOfAnInstantDependsOnTheTimeZone() throws {
        let instant = Date(timeIntervalSince1970: 1_764_633_600 - 3600)  // 2025-12-01T23:00:00Z
        #expect(CalendarDay(containing: instant, in: .utc).description == "2025-12-01")
        let tokyo = try #require(TimeZoneRules.named("Asia/Tokyo"))
        #expect(CalendarDay(containing: instant, in: tokyo).description == "2025-12-02")
    }
}
