import Foundation
@testable import HearthServices
import Testing

/// Per-host politeness of feed refreshes (`--calendar-feed-host-interval`) at its edge, the time
/// passed in.
@Suite struct FeedHostTurnsTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aHostIsFetchedAgainExactlyOneIntervalLaterAndNotAMillisecondSooner() {
        var turns = FeedHostTurns(interval: .seconds(10))
        #expect(turns.take(host: "cal.example.org", calendarID: "a", at: start) == nil, "the first fetch goes at once")
        let early = start.addingTimeInterval(9.999)
        #expect(turns.take(host: "CAL.example.org", calendarID: "b", at: early) == start.addingTimeInterval(10), "a millisecond early waits")
        #expect(turns.take(host: "other.example.org", calendarID: "c", at: early) == nil, "another host is not held back")
        #expect(turns.take(host: "cal.example.org", calendarID: "b", at: start.addingTimeInterval(10)) == nil, "its turn comes exactly then")
        #expect(turns.take(host: "cal.example.org", calendarID: "d", at: start.addingTimeInterval(20)) == nil, "one interval after that turn")
    }

    @Test func feedsDueTogetherGetTurnsOneIntervalApartEachReservedOnce() {
        var turns = FeedHostTurns(interval: .seconds(1))
        let due = (0..<100).map { turns.take(host: "cal.example.org", calendarID: "feed\($0)", at: start) }
        #expect(due.first == .some(nil))
        #expect(due.dropFirst().map { $0?.timeIntervalSince(start) } == (1..<100).map { Double($0) })
        for index in 1..<100 {
            let turn = start.addingTimeInterval(Double(index))
            #expect(turns.take(host: "cal.example.org", calendarID: "feed\(index)", at: turn) == nil, "feed \(index) at its reserved turn")
        }
        #expect(turns.take(host: "cal.example.org", calendarID: "late", at: start.addingTimeInterval(99.5)) == start.addingTimeInterval(100))
    }

    @Test func aFetchThatDidNotWaitCountsAsTheHostsLast() {
        var turns = FeedHostTurns(interval: .seconds(60))
        turns.record(host: "cal.example.org", at: start)
        #expect(turns.take(host: "cal.example.org", calendarID: "a", at: start.addingTimeInterval(30)) == start.addingTimeInterval(60))
    }

    @Test func zeroTurnsThePacingOff() {
        var turns = FeedHostTurns(interval: .zero)
        #expect((0..<3).allSatisfy { turns.take(host: "cal.example.org", calendarID: "f\($0)", at: start) == nil })
    }
}
