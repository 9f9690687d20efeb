import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// FR-56 – FR-58: what a household's leaderboard and a personal scoreboard count, as the service
/// keeps and reads them (ScoreKeeper's sums, kept in the completions' transactions).
struct LeaderboardServiceTests {
    /// The token fixture with a leaderboard service over it (made after the token service, as the server does).
    private func with(_ body: (TokensFixture, LeaderboardService) async throws -> Void) async throws {
        try await TokensFixture.with { f in try await body(f, LeaderboardService(tokens: f.tokens)) }
    }

    /// Flat's board for `period` as ana sees it: (display name, rank, completions, tokens, percentage) best first.
    private func board(_ f: TokensFixture, _ leaderboards: LeaderboardService, _ period: ScorePeriod = .week) async throws
        -> [String]
    {
        let (board, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: period, viewer: f.ana)
        return board.entries.map { "\($0.member.displayName) \($0.rank) \($0.completions) \($0.tokens) \($0.percentage)" }
    }

    /// The display names of Flat's members, for readable expectations.
    private func names(_ f: TokensFixture) async throws -> (ana: String, ben: String, kim: String) {
        (try await f.member(f.anaMember, as: f.ana).displayName, try await f.member(f.benMember, as: f.ana).displayName,
         try await f.member(f.kimMember, as: f.ana).displayName)
    }

    @Test func aCompletionCountsForItsMemberWithItsTokensAndEveryoneElseIsListedAtZero() async throws {
        try await with { f, leaderboards in
            let n = try await names(f)
            let (_, instance) = try await f.chore("Dishes", tokens: 4)
            try await f.harness.complete(instance, as: f.ben)
            let expected = ["\(n.ben) 1 1 4 100.00", "\(n.ana) 2 0 0 0.00", "\(n.kim) 2 0 0 0.00"].sorted { $0.hasPrefix(n.ben) && !$1.hasPrefix(n.ben) }
            let week = try await board(f, leaderboards)
            #expect(week.first == expected.first && Set(week) == Set(expected))
            let month = try await board(f, leaderboards, .month)
            let ever = try await board(f, leaderboards, .allTime)
            #expect(month == week && ever == week)
            #expect(try f.h.sqlText("SELECT count(*) FROM change_log WHERE kind = 'scores.changed'") == "1")
        }
    }

    @Test func equalCountsShareARankAndTheNextRankSkipsThePlacesTheyTook() async throws {
        try await with { f, leaderboards in
            let n = try await names(f)
            let (_, forBen) = try await f.chore("Dishes", tokens: 1)
            let (_, forKim) = try await f.chore("Bins", tokens: 3, assignees: [f.kimMember])
            try await f.harness.complete(forBen, as: f.ben)
            try await f.harness.complete(forKim, as: f.kim)
            // Equal counts rank alike; more tokens come first among them.
            #expect(try await board(f, leaderboards) == ["\(n.kim) 1 1 3 50.00", "\(n.ben) 1 1 1 50.00", "\(n.ana) 3 0 0 0.00"])
        }
    }

    @Test func onlyApprovedCompletionsCountAndUndoingTakesOneBack() async throws {
        try await with { f, leaderboards in
            let n = try await names(f)
            let (_, approved) = try await f.chore("Dishes", tokens: 2, requiresApproval: true)
            let (_, rejected) = try await f.chore("Bins", tokens: 2, requiresApproval: true)
            let waiting = try #require(try await f.harness.complete(approved, as: f.ben).completion)
            let refused = try #require(try await f.harness.complete(rejected, as: f.ben).completion)
            #expect(try await board(f, leaderboards).allSatisfy { $0.contains(" 0 0 0.00") })
            _ = try await f.tokens.rejectCompletion(id: refused.id, reason: nil, viewer: f.ana)
            _ = try await f.tokens.approveCompletion(id: waiting.id, viewer: f.ana)
            #expect(try await board(f, leaderboards).first == "\(n.ben) 1 1 2 100.00")
            // Undone by the admin: the completion and its tokens leave the board, on the day they were added to.
            _ = try await f.harness.instances.uncompleteChore(instanceID: approved, viewer: f.ana)
            #expect(try await board(f, leaderboards).allSatisfy { $0.contains(" 0 0 0.00") })
            #expect(try f.h.sqlText("SELECT count(*) FROM chore_scores") == "0")
            #expect(try f.h.sqlText("SELECT sum(completions) || ' ' || sum(tokens) FROM chore_score_days") == "0 0")
        }
    }

    @Test func aMultiStepChoreCountsOnceForWhoeverCompletedItsLastStep() async throws {
        try await with { f, leaderboards in
            let n = try await names(f)
            let (chore, instance) = try await f.chore("Laundry", tokens: 6) {
                $0.steps = [.init(title: "Wash"), .init(title: "Hang")]
            }
            _ = chore
            try await f.harness.complete(instance, as: f.ben)
            #expect(try await board(f, leaderboards).allSatisfy { $0.contains(" 0 0 0.00") })
            try await f.harness.complete(instance, as: f.ben)
            #expect(try await board(f, leaderboards).first == "\(n.ben) 1 1 6 100.00")
        }
    }

    @Test func tokensGoWhereTheEarningsSplitSentThemWhileTheCompletionCountsForItsMember() async throws {
        try await with { f, leaderboards in
            let n = try await names(f)
            // Ben's chore done by the admin: the fallback split pays the assignee.
            let (_, instance) = try await f.chore("Dishes", tokens: 5)
            try await f.harness.complete(instance, as: f.ana)
            let rows = try await board(f, leaderboards)
            #expect(rows.first == "\(n.ana) 1 1 0 100.00" && rows.contains("\(n.ben) 2 0 5 0.00"))
            let (board, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: .week, viewer: f.kim)
            #expect(board.totalCompletions == 1 && board.totalTokens == 5)
        }
    }

    @Test func membersWhoLeftLeaveTheBoardButKeepTheirHistory() async throws {
        try await with { f, leaderboards in
            let (_, instance) = try await f.chore("Dishes", tokens: 4)
            try await f.harness.complete(instance, as: f.ben)
            _ = try await f.h.service.leaveHousehold(id: f.householdID, incompleteTasks: .unassign, viewer: f.ben)
            let (board, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: .allTime, viewer: f.ana)
            #expect(!board.entries.contains { $0.member.id == f.benMember } && board.entries.count == 2 && board.totalCompletions == 0)
            #expect(try f.h.sqlText("SELECT completions FROM chore_scores WHERE member_id = '\(f.benMember)'") == "1")
            // Ben can no longer read it; nor could an outsider ever.
            #expect(await f.h.refusal { try await leaderboards.leaderboard(householdID: f.householdID, period: .week, viewer: f.ben) }?.code == .notFound)
            #expect(await f.h.refusal { try await leaderboards.leaderboard(householdID: f.householdID, period: .week, viewer: f.eve) }?.code == .notFound)
            #expect(await f.h.refusal { try await leaderboards.leaderboard(householdID: "hh_nope", period: .week, viewer: f.eve) }?.code == .notFound)
        }
    }

    @Test func personalCompletionsCountOnTheOwnersScoreboardOnly() async throws {
        try await with { f, leaderboards in
            let due = f.harness.clock.now.addingTimeInterval(3600)
            let chore = try await f.h.chore("Stretch", in: nil, by: f.ben) { $0.schedule = .once(due) }
            try await f.harness.complete(f.harness.instanceID(chore, at: due), as: f.ben)
            #expect(try await leaderboards.scoreboard(of: f.ben, period: .week).completions == 1)
            #expect(try await leaderboards.scoreboard(of: f.ben, period: .allTime).completions == 1)
            #expect(try await leaderboards.scoreboard(of: f.ana, period: .allTime).completions == 0)
            #expect(try await board(f, leaderboards, .allTime).allSatisfy { $0.contains(" 0 0 0.00") })
            #expect(try f.h.sqlText("SELECT topic FROM change_log WHERE kind = 'scores.changed'") == "user:\(f.ben.userID)")
            _ = try await f.harness.instances.uncompleteChore(instanceID: f.harness.instanceID(chore, at: due), viewer: f.ben)
            #expect(try await leaderboards.scoreboard(of: f.ben, period: .allTime).completions == 0)
        }
    }

    /// FR-56's time-zone edge: in a household whose zone differs from UTC, a completion at 23:59 local on
    /// the last day of a month counts in that month, one at 00:01 in the next, whatever the UTC date.
    @Test func monthsAreCalendarMonthsInTheHouseholdsTimeZone() async throws {
        try await with { f, leaderboards in
            _ = try await f.h.service.updateHousehold(id: f.householdID, .init(timeZone: "Pacific/Auckland"), viewer: f.ana)
            let zone = try #require(TimeZoneRules.named("Pacific/Auckland"))
            // 2026-09-30 23:59 in Auckland (UTC+12 until the end of September; +13 from 27 September: NZDT) .
            let lastDay = CivilCalendar.dayNumber(year: 2026, month: 9, day: 30)
            let local = lastDay * 86_400 + 23 * 3600 + 59 * 60
            let target = Date(timeIntervalSince1970: TimeInterval(local - zone.secondsFromUTC(at: Date(timeIntervalSince1970: TimeInterval(local - 13 * 3600)))))
            #expect(ScoreWindow.day(of: target, in: zone) == lastDay)
            f.harness.clock.advance(seconds: target.timeIntervalSince(f.harness.clock.now) - 3000)
            let (_, late) = try await f.chore("Late", tokens: 1)
            let (_, early) = try await f.chore("Early", tokens: 1)
            f.harness.clock.advance(seconds: target.timeIntervalSince(f.harness.clock.now))
            try await f.harness.complete(late, as: f.ben)
            f.harness.clock.advance(seconds: 120)
            try await f.harness.complete(early, as: f.ben)
            #expect(try f.h.sqlText("SELECT min(day) || ',' || max(day) FROM chore_scores") == "\(lastDay),\(lastDay + 1)")
            let (october, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: .month, viewer: f.ana)
            #expect(october.totalCompletions == 1 && october.window.firstDay == lastDay + 1)
            #expect(october.window.start == Date(timeIntervalSince1970: TimeInterval((lastDay + 1) * 86_400 - 13 * 3600)))
            let (ever, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: .allTime, viewer: f.ana)
            #expect(ever.totalCompletions == 2 && ever.window.start == nil)
            // Back in September's last minute the board held the 23:59 completion alone.
            let september = ScoreWindow(.month, containing: target, in: zone)
            #expect(september.firstDay == CivilCalendar.dayNumber(year: 2026, month: 9, day: 1) && september.endDay == lastDay + 1)
        }
    }

    @Test func weeksStartOnTheHouseholdsFirstWeekdayWhichAdminsChoose() async throws {
        try await with { f, leaderboards in
            let (monday, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: .week, viewer: f.ana)
            #expect(monday.firstWeekday == .monday)
            #expect(CivilCalendar.weekday(ofDayNumber: try #require(monday.window.firstDay)) == 0)
            let refused = await f.h.refusal {
                try await f.h.service.updateHousehold(id: f.householdID, .init(firstWeekday: .sunday), viewer: f.ben)
            }
            #expect(refused?.code == .forbidden)
            _ = try await f.h.service.updateHousehold(id: f.householdID, .init(firstWeekday: .sunday), viewer: f.ana)
            let (sunday, _) = try await leaderboards.leaderboard(householdID: f.householdID, period: .week, viewer: f.ana)
            let sundayFirst = try #require(sunday.window.firstDay)
            #expect(sunday.firstWeekday == .sunday && CivilCalendar.weekday(ofDayNumber: sundayFirst) == 6)
            _ = try await f.h.service.updateHousehold(id: f.householdID, .init(firstWeekday: .some(nil)), viewer: f.ana)
            let restored = try await leaderboards.leaderboard(householdID: f.householdID, period: .week, viewer: f.ana).0
            #expect(restored.firstWeekday == .monday)
        }
    }
}

/// Live boards' period ends (``LeaderboardRollover``): when they are scheduled, how often, and what the job records.
struct LeaderboardRolloverTests {
    /// The due times of the pending period-end jobs, earliest first.
    private func periodEnds(_ f: TokensFixture) throws -> [Date] {
        try f.h.pool.read { try JobQueue.jobs(state: nil, kind: .leaderboardPeriodEnd, limit: 20, in: $0) }.map(\.dueAt).sorted()
    }

    /// The ends of the week and month containing `now` in `zoneName`, earliest first.
    private func ends(at now: Date, in zoneName: String, firstWeekday: Weekday = .monday) throws -> [Date] {
        let zone = try RecurrenceZone.timeZone(named: zoneName)
        return [ScorePeriod.week, .month].compactMap { ScoreWindow($0, containing: now, in: zone, firstWeekday: firstWeekday).end }.sorted()
    }

    @Test func countedCompletionsScheduleTheWeeksAndMonthsEndOnceAndASettingsChangeSchedulesTheMovedEnds() async throws {
        try await TokensFixture.with { f in
            let leaderboards = LeaderboardService(tokens: f.tokens)
            _ = try await f.h.service.updateHousehold(id: f.householdID, .init(timeZone: "Europe/Lisbon"), viewer: f.ana)
            #expect(try periodEnds(f).isEmpty, "a household without scores has no board to roll")
            let (_, waiting) = try await f.chore("Room", tokens: 1, requiresApproval: true)
            try await f.harness.complete(waiting, as: f.ben)
            #expect(try periodEnds(f).isEmpty, "a completion waiting for approval counts nothing yet")

            let (_, dishes) = try await f.chore("Dishes", tokens: 1)
            let (_, bins) = try await f.chore("Bins", tokens: 1, assignees: [f.kimMember])
            try await f.harness.complete(dishes, as: f.ben)
            try await f.harness.complete(bins, as: f.kim)
            let lisbon = try ends(at: f.h.clock.now, in: "Europe/Lisbon")
            #expect(try periodEnds(f) == Array(Set(lisbon)).sorted(), "two completions, one job per period end")

            _ = try await f.h.service.updateHousehold(id: f.householdID, .init(timeZone: "Asia/Tokyo", firstWeekday: .sunday), viewer: f.ana)
            let tokyo = try ends(at: f.h.clock.now, in: "Asia/Tokyo", firstWeekday: .sunday)
            #expect(try periodEnds(f) == Array(Set(lisbon + tokyo)).sorted())

            let job = try #require(try await f.h.pool.read { try JobQueue.jobs(state: nil, kind: .leaderboardPeriodEnd, limit: 1, in: $0) }.first)
            try leaderboards.rolloverJob.run(job)
            let topic = try f.h.sqlText("SELECT topic FROM change_log WHERE kind = 'leaderboard.period_ended'")
            let payload = try #require(try f.h.sqlText("SELECT payload FROM change_log WHERE kind = 'leaderboard.period_ended'"))
            #expect(topic == "household:\(f.householdID)")
            #expect(try JSONDecoder().decode(PeriodEnded.self, from: Data(payload.utf8)).householdID == f.householdID)
        }
    }
}

/// The payload of a `leaderboard.period_ended` change, as far as the rollover test reads it.
private struct PeriodEnded: Decodable {
    var householdID: String
}
