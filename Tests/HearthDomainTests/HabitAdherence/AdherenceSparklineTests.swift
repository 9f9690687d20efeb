@testable import HearthDomain
import Support
import Testing

/// The SVG sparkline of the last weeks: standalone, accessible, deterministic.
struct AdherenceSparklineTests {
    private let monday = CivilCalendar.dayNumber(year: 2026, month: 11, day: 30)

    private func weeks(_ counts: [(planned: Int, kept: Int)]) -> [AdherenceWeek] {
        counts.enumerated().map { index, count in
            AdherenceWeek(startsOn: monday - 7 * (counts.count - 1 - index), plannedDays: count.planned, keptDays: count.kept, unplannedDaysDone: 0)
        }
    }

    @Test func theSameDataGivesTheSameBytesAndOtherCountsOtherBytes() {
        let data = weeks([(3, 3), (3, 2), (0, 0), (3, 0)])
        #expect(AdherenceSparkline.svg(title: "Run", weeks: data) == AdherenceSparkline.svg(title: "Run", weeks: data))
        // 2 of 3 and 4 of 6 draw the same bar; the description still tells them apart.
        let sameShare = weeks([(3, 3), (6, 4), (0, 0), (3, 0)])
        #expect(AdherenceSparkline.svg(title: "Run", weeks: data) != AdherenceSparkline.svg(title: "Run", weeks: sameShare))
    }

    @Test func aWeekWithoutPlannedDaysHasNoBarAndAMissedWeekAThinOne() {
        let svg = AdherenceSparkline.svg(title: "Run", weeks: weeks([(3, 3), (0, 0), (3, 0)]))
        #expect(svg.contains("<rect x=\"1\" y=\"0\" width=\"8\" height=\"30\" fill=\"#2da44e\"/>"))
        #expect(!svg.contains("<rect x=\"11\""))
        #expect(svg.contains("<rect x=\"21\" y=\"29\" width=\"8\" height=\"1\" fill=\"#cf222e\"/>"))
        #expect(svg.contains("viewBox=\"0 0 30 32\""))
    }

    @Test func itIsSVGOneOneWithATitleAndNoExternalReferences() {
        let svg = AdherenceSparkline.svg(title: "Run", weeks: weeks(Array(repeating: (3, 1), count: 12)))
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""))
        #expect(svg.contains("<title id=\"title\">Run: planned days kept, last 12 weeks</title>"))
        #expect(svg.contains("Week of 2026-11-30: 1 of 3 planned days kept."))
        for forbidden in ["href", "<script", "<style", "url(", "<image", "<foreignObject"] { #expect(!svg.contains(forbidden)) }
    }

    @Test func theTitleIsEscapedAndControlCharactersDropped() {
        let svg = AdherenceSparkline.svg(title: "<a & \"b\" 'c'>\u{1}\n", weeks: [])
        #expect(svg.contains("<title id=\"title\">&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt; : planned days kept, last 0 weeks</title>"))
    }

    @Test func daysDoneOffThePlanAreDescribed() {
        let week = AdherenceWeek(startsOn: monday, plannedDays: 3, keptDays: 2, unplannedDaysDone: 1)
        #expect(AdherenceSparkline.description(of: [week]) == "Week of 2026-11-30: 2 of 3 planned days kept, 1 more done off the plan.")
    }
}
