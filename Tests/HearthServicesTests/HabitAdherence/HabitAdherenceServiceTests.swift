import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// US 01.07 and US 01.08 as the service reads them: today's habits in the owner's time zone, the
/// adherence of several habits in two statements, who may see it, the sparkline and its tag. Habits
/// and events are written with SQL (migration 0022's tables), as the habits service writes them.
struct HabitAdherenceServiceTests {
    private static let mondayWednesdayFriday = 0b0010101

    private func with(_ body: (AccountsHarness, HabitAdherenceService) async throws -> Void) async throws {
        try await AccountsHarness.with { h in
            var configuration = HabitAdherenceConfiguration()
            configuration.maximumWeeks = 52
            try await body(h, HabitAdherenceService(
                pool: h.pool, clock: h.clock, configuration: configuration, baseURL: try PublicBaseURL("https://hearth.example")))
        }
    }

    /// A registered user as a viewer, in time zone `zone` (nil: unset, UTC).
    private func user(_ h: AccountsHarness, _ name: String, zone: String? = nil) async throws -> Viewer {
        let (_, session) = try await h.register(name)
        if let zone { try await h.pool.write { try $0.execute("UPDATE users SET time_zone = ? WHERE username = ?", [zone, name]) } }
        return try await h.service.authenticate(accessToken: session.accessToken)
    }

    /// Moves the harness's clock to `iso` (an RFC 3339 instant in UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    private func moveClock(_ h: AccountsHarness, to iso: String) {
        let day = CalendarDay(String(iso.prefix(10)))!.dayNumber
        let parts = iso.dropFirst(11).prefix(8).split(separator: ":").map { Int($0)! }
        let target = Double(day * 86_400 + parts[0] * 3600 + parts[1] * 60 + parts[2])
        h.clock.advance(seconds: target - h.clock.now.timeIntervalSince1970)
    }

    /// A habit of `owner` stored as the habits service stores one; its id.
    @discardableResult
    private func habit(
        _ h: AccountsHarness, of owner: Viewer, title: String = "Run", plan: Int = mondayWednesdayFriday, startsOn: String,
        visibility: String = "followers"
    ) throws -> String {
        let id = GlobalID.make(.habit, now: h.clock.now).description
        try h.pool.write { database in
            try database.execute(
                """
                INSERT INTO habits (id, user_id, title, reason, starts_on, plan, visibility, created_at, updated_at)
                VALUES (?, ?, ?, '', ?, ?, ?, ?, ?)
                """,
                [id, owner.userID, title, startsOn, plan, visibility, h.clock.storedNow, h.clock.storedNow])
        }
        h.clock.advance(seconds: 0.001)
        return id
    }

    /// An event of habit `habitID` (owned by `owner`) counting for local day `day`.
    private func event(_ h: AccountsHarness, _ habitID: String, of owner: Viewer, on day: String) throws {
        try h.pool.write { database in
            try database.execute(
                """
                INSERT INTO habit_events (id, habit_id, user_id, occurred_on, recorded_at, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [GlobalID.make(.habitEvent, now: h.clock.now).description, habitID, owner.userID, day, h.clock.storedNow, h.clock.storedNow,
                 h.clock.storedNow])
        }
    }

    private func follow(_ h: AccountsHarness, _ follower: Viewer, _ followed: Viewer, accepted: Bool = true) throws {
        try h.pool.write { database in
            try database.execute(
                "INSERT INTO follows (id, follower_id, followed_id, status, requested_at, accepted_at) VALUES (?, ?, ?, ?, ?, ?)",
                [GlobalID.make(.follow, now: h.clock.now).description, follower.userID, followed.userID, accepted ? "accepted" : "requested",
                 h.clock.storedNow, accepted ? h.clock.storedNow : nil])
        }
    }

    private func today(_ adherence: HabitAdherenceService, _ viewer: Viewer) async throws -> [String] {
        try await adherence.todayHabits(viewer: viewer).entries.map { "\($0.habit.id) \($0.isDoneToday)" }
    }

    @Test func todayListsTheStartedHabitsPlannedForTodaysWeekdayWithWhetherTheyAreDone() async throws {
        try await with { h, adherence in
            let ana = try await user(h, "ana")
            let ben = try await user(h, "ben")
            moveClock(h, to: "2026-11-30T09:00:00Z")  // a Monday
            let run = try habit(h, of: ana, startsOn: "2026-11-01")
            try habit(h, of: ana, title: "Swim", plan: 0b0001010, startsOn: "2026-11-01")  // Tuesdays, Thursdays
            try habit(h, of: ana, title: "Read", plan: 0b1111111, startsOn: "2026-12-01")  // starts tomorrow
            let stretch = try habit(h, of: ana, title: "Stretch", plan: 0b1111111, startsOn: "2026-11-30")  // starts today
            try habit(h, of: ben, startsOn: "2026-11-01")
            #expect(try await today(adherence, ana) == ["\(run) false", "\(stretch) false"])
            try event(h, run, of: ana, on: "2026-11-30")
            try event(h, run, of: ana, on: "2026-11-30")
            #expect(try await today(adherence, ana) == ["\(run) true", "\(stretch) false"])
            let list = try await adherence.todayHabits(viewer: ana)
            #expect(CalendarDay(dayNumber: list.day).description == "2026-11-30" && list.timeZoneName == "UTC")
            moveClock(h, to: "2026-12-01T09:00:00Z")
            #expect(try await today(adherence, ana).count == 3)
        }
    }

    @Test func todayIsTheViewersLocalDayAcrossMidnight() async throws {
        try await with { h, adherence in
            let ana = try await user(h, "ana", zone: "America/New_York")
            let run = try habit(h, of: ana, startsOn: "2026-11-01")
            // 23:30 on Sunday 11-29 in New York: nothing planned.
            moveClock(h, to: "2026-11-30T04:30:00Z")
            #expect(try await today(adherence, ana).isEmpty)
            // 00:05 on Monday in New York, still Monday 05:05 UTC: an event for Monday counts.
            moveClock(h, to: "2026-11-30T05:05:00Z")
            try event(h, run, of: ana, on: "2026-11-30")
            #expect(try await today(adherence, ana) == ["\(run) true"])
        }
    }

    @Test func daysAreCalendarDaysAcrossADaylightSavingChange() async throws {
        try await with { h, adherence in
            // Berlin moved its clocks forward at 01:00 UTC on Sunday 2027-03-28; 22:30 UTC that day
            // is already 00:30 on Monday there (a fixed +1 hour offset would still say Sunday).
            let ana = try await user(h, "ana", zone: "Europe/Berlin")
            let run = try habit(h, of: ana, startsOn: "2027-03-01")
            moveClock(h, to: "2027-03-28T22:30:00Z")
            let list = try await adherence.todayHabits(viewer: ana)
            #expect(CalendarDay(dayNumber: list.day).description == "2027-03-29" && list.entries.map(\.habit.id) == [run])
        }
    }

    @Test func adherenceOfSeveralHabitsIsReadInTwoStatements() async throws {
        try await with { h, adherence in
            let ana = try await user(h, "ana")
            moveClock(h, to: "2026-12-02T12:00:00Z")  // Wednesday
            var ids: [String] = []
            for index in 0..<5 {
                let id = try habit(h, of: ana, title: "Habit \(index)", startsOn: "2026-11-02")
                for day in ["2026-11-02", "2026-11-04", "2026-11-06", "2026-11-30", "2026-12-01"] { try event(h, id, of: ana, on: day) }
                ids.append(id)
            }
            var found: [String: (HabitRecord, HabitAdherence)] = [:]
            let count = try await statements(on: h.pool) { found = try await adherence.adherence(of: ids, viewer: ana) }
            #expect(count == 2)
            let first = try #require(found[ids[0]]).1
            // MWF from 11-02 to Tuesday 12-01: 13 planned days, 4 kept (12-01 is off the plan); today pending.
            #expect(first.plannedDays == 13 && first.keptDays == 4 && first.currentStreak == 1 && first.bestStreak == 3)
            #expect(first.weeks(1)[0].unplannedDaysDone == 1)
        }
    }

    @Test func theAdherenceOfHabitsAlreadyReadTakesTwoStatementsForOneHabitOrManyOfSeveralOwners() async throws {
        try await with { h, adherence in
            // 11:30 UTC on 11-30 is already 12-01 in Auckland, still 11-30 in Los Angeles: each habit counts in its owner's zone.
            let ana = try await user(h, "ana", zone: "Pacific/Auckland")
            let ben = try await user(h, "ben", zone: "America/Los_Angeles")
            try follow(h, ana, ben)
            moveClock(h, to: "2026-11-30T11:30:00Z")
            var ids: [String] = []
            for (index, owner) in [ana, ben, ana, ben, ben, ana, ben].enumerated() {
                let id = try habit(h, of: owner, title: "Habit \(index)", plan: 0b1111111, startsOn: "2026-11-20")
                for day in ["2026-11-20", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"].prefix(index + 1) { try event(h, id, of: owner, on: day) }
                ids.append(id)
            }
            let byID = try await adherence.adherence(of: ids, viewer: ana)
            let records = ids.map { byID[$0]!.0 }
            var one: [String: HabitAdherence] = [:]
            var all: [String: HabitAdherence] = [:]
            #expect(try await statements(on: h.pool) { one = try await adherence.adherence(of: [records[0]]) } == 2)
            #expect(try await statements(on: h.pool) { all = try await adherence.adherence(of: records) } == 2, "the same for seven habits")
            #expect(one == [ids[0]: byID[ids[0]]!.1])
            #expect(all == byID.mapValues(\.1), "the same figures as the audience-checked read")
            #expect(all[ids[3]]!.isDoneToday && all[ids[5]]!.isDoneToday && !all[ids[2]]!.isDoneToday, "ben's today is 11-30, ana's 12-01")
            #expect(CalendarDay(dayNumber: all[ids[0]]!.today).description == "2026-12-01")
            #expect(CalendarDay(dayNumber: all[ids[1]]!.today).description == "2026-11-30")
        }
    }

    @Test func adherenceIsForWhoeverMaySeeTheHabit() async throws {
        try await with { h, adherence in
            let ana = try await user(h, "ana")
            let ben = try await user(h, "ben")
            let kim = try await user(h, "kim")
            let open = try habit(h, of: ana, startsOn: "2026-11-01")
            let secret = try habit(h, of: ana, title: "Diary", startsOn: "2026-11-01", visibility: "private")
            try follow(h, ben, ana)
            try follow(h, kim, ana, accepted: false)
            #expect(Set(try await adherence.adherence(of: [open, secret], viewer: ana).keys) == [open, secret])
            #expect(Set(try await adherence.adherence(of: [open, secret], viewer: ben).keys) == [open])
            #expect(try await adherence.adherence(of: [open, secret], viewer: kim).isEmpty)
            #expect(try await adherence.sparkline(habitID: secret, viewer: ben) == nil)
            #expect(try await adherence.sparkline(habitID: open, viewer: kim) == nil)
            #expect(try await adherence.sparkline(habitID: "hab_not-an-id", viewer: ana) == nil)
            #expect(try await adherence.sparkline(habitID: open, viewer: ben) != nil)
        }
    }

    @Test func aFollowerSeesTheOwnersToday() async throws {
        try await with { h, adherence in
            let ana = try await user(h, "ana", zone: "Pacific/Auckland")
            let ben = try await user(h, "ben", zone: "America/Los_Angeles")
            try follow(h, ben, ana)
            let run = try habit(h, of: ana, plan: 0b1111111, startsOn: "2026-11-01")
            // 11:30 UTC on 11-30 is already 12-01 in Auckland, still 11-30 in Los Angeles.
            moveClock(h, to: "2026-11-30T11:30:00Z")
            try event(h, run, of: ana, on: "2026-12-01")
            let seen = try #require(try await adherence.adherence(of: [run], viewer: ben)[run]).1
            #expect(seen.isDoneToday && CalendarDay(dayNumber: seen.today).description == "2026-12-01")
        }
    }

    @Test func theSparklineAndItsTagChangeWhenAnEventIsRecorded() async throws {
        try await with { h, adherence in
            let ana = try await user(h, "ana")
            moveClock(h, to: "2026-12-02T12:00:00Z")
            let run = try habit(h, of: ana, startsOn: "2026-11-02")
            let before = try #require(try await adherence.sparkline(habitID: run, viewer: ana))
            #expect(try await adherence.sparkline(habitID: run, viewer: ana) == before)
            try event(h, run, of: ana, on: "2026-12-02")
            let after = try #require(try await adherence.sparkline(habitID: run, viewer: ana))
            #expect(after.etag != before.etag && after.svg != before.svg)
            #expect(before.etag.hasPrefix("\"") && before.etag.count == 66)
            #expect(adherence.sparklineURL(habitID: run) == "https://hearth.example/habits/\(run)/sparkline.svg")
        }
    }

    @Test func weeksAreCheckedAgainstTheConfiguredMaximum() async throws {
        try await with { _, adherence in
            try adherence.checkWeeks(1)
            try adherence.checkWeeks(52)
            for weeks in [0, 53, -1] {
                #expect { try adherence.checkWeeks(weeks) } throws: { error in
                    let error = error as? ServiceError
                    return error?.code == .badUserInput && error?.problems.first?.reason == .outOfRange && error?.problems.first?.field == "weeks"
                }
            }
        }
    }
}
