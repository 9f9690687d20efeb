@testable import HearthDomain
import Support
import Testing

/// `YYYY-MM-DD` to day numbers and back.
struct CalendarDayTextTests {
    @Test func validDatesReadAndWriteBack() {
        for text in ["1970-01-01", "2026-12-02", "2028-02-29", "0001-01-01", "9999-12-31"] {
            let day = CalendarDayText.dayNumber(text)
            #expect(day != nil && CalendarDayText.text(day!) == text)
        }
        #expect(CalendarDayText.dayNumber("1970-01-02") == 1)
    }

    @Test func malformedOrImpossibleDatesAreNil() {
        for text in ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-01", "2026/01/01", "0000-01-01", "2026-01-01 ", "２０２６-01-01", ""] {
            #expect(CalendarDayText.dayNumber(text) == nil, "\(text)")
        }
    }
}
