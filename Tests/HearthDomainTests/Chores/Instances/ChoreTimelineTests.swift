import FoundationEssentials
import HearthDomain
import Testing

/// The due times of the three kinds of schedule, and the local-day arithmetic planning uses.
@Suite struct ChoreTimelineTests {
    private static let berlin = TimeZoneRules.named("Europe/Berlin")!

    private static func date(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    @Test func aOneOffChoreHasItsOneDueTime() throws {
        let due = Self.date("2026-12-05T17:00:00Z")
        let timeline = try ChoreTimeline(.once(dueAt: due), timeZone: .utc)
        #expect(timeline.dueTimes(after: Self.date("2026-12-01T00:00:00Z"), limit: 10) == [due])
        #expect(timeline.dueTimes(after: due.addingTimeInterval(1), limit: 10).isEmpty)
        #expect(timeline.dueTimes(after: Self.date("2026-12-01T00:00:00Z"), through: due.addingTimeInterval(-1), limit: 10).isEmpty)
    }

    @Test func aRecurrenceStopsAtThroughInclusive() throws {
        let timeline = try ChoreTimeline(.recurrence("DTSTART;TZID=Europe/Berlin:20261201T080000\nRRULE:FREQ=DAILY"), timeZone: Self.berlin)
        let times = timeline.dueTimes(after: Self.date("2026-12-01T00:00:00Z"), through: Self.date("2026-12-03T07:00:00Z"), limit: 10)
        #expect(times == [Self.date("2026-12-01T07:00:00Z"), Self.date("2026-12-02T07:00:00Z"), Self.date("2026-12-03T07:00:00Z")])
    }

    @Test func afterCompletionCountsLocalDaysFromTheLatestCompletionAcrossDaylightSaving() throws {
        let timeline = try ChoreTimeline(.afterCompletion(every: 2, unit: .days, firstDueAt: Self.date("2026-03-20T17:00:00Z")), timeZone: Self.berlin)
        #expect(timeline.nextAfterCompletion(nil) == Self.date("2026-03-20T17:00:00Z"))
        // Done at 18:00 CET on Saturday 28 March; Berlin springs forward on the 29th: due 18:00 CEST on the 30th.
        #expect(timeline.nextAfterCompletion(Self.date("2026-03-28T17:00:00Z")) == Self.date("2026-03-30T16:00:00Z"))
        let projected = timeline.dueTimes(after: Self.date("2026-03-30T00:00:00Z"), limit: 2, lastCompletedAt: Self.date("2026-03-28T17:00:00Z"))
        #expect(projected == [Self.date("2026-03-30T16:00:00Z"), Self.date("2026-04-01T16:00:00Z")])
    }

    @Test func theEndOfADayIsTheNextLocalMidnight() {
        #expect(ChoreTimeline.endOfDay(of: Self.date("2026-12-05T17:00:00Z"), in: Self.berlin) == Self.date("2026-12-05T23:00:00Z"))
        #expect(ChoreTimeline.endOfDay(of: Self.date("2026-12-05T23:30:00Z"), in: Self.berlin) == Self.date("2026-12-06T23:00:00Z"))
        #expect(ChoreTimeline.endOfDay(of: Self.date("2026-12-05T17:00:00Z"), in: .utc) == Self.date("2026-12-06T00:00:00Z"))
    }
}
