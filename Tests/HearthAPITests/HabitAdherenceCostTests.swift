import GraphQL
import HearthDomain
import HearthServices
import TestFixtures
import Testing

/// What habit lists with their adherence cost in SQL statements through the API, counted by the
/// pool: `myHabits` and `todayHabits` read every habit's figures of the list at once
/// (``HabitAdherenceService/adherence(of:)`` through one batch), so the same for 2 habits as for
/// 12, where a resolver reading per habit (two statements each) fails here. Counts, not timings.
@Suite struct HabitAdherenceCostTests {
    static let lists = """
        {
          myHabits { totalCount edges { node { id title adherence(weeks: 2) { plannedDays keptDays currentStreak weeks { keptDays } } } } }
          todayHabits { isDoneToday habit { id adherence { isDoneToday keptDays } } }
        }
        """

    /// The statements `lists` takes as `viewer`, and its result.
    private func lists(_ fixture: HouseholdsAPIFixture, as viewer: Viewer) async throws -> (statements: Int, result: ExecutionResult) {
        let store = fixture.harness.pool
        let before = try StoreStatistics.statements(of: store)
        let result = try await fixture.execute(Self.lists, as: viewer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return (try StoreStatistics.statements(of: store) - before, result)
    }

    @Test func myHabitsAndTodayHabitsWithAdherenceReadTheSameStatementsForTwoHabitsAsForTwelve() async throws {
        try await HouseholdsAPIFixture.with(habits: true) { fixture in
            let habits = try #require(fixture.habits)
            let ana = try await fixture.person("ana")
            let today = CalendarDay(containing: fixture.harness.clock.now, in: .utc)
            // Habit n started 10 days ago, every day, kept on the last n + 1 days up to today.
            func add(_ count: Int) async throws {
                for _ in 0..<count {
                    let index = try await habits.myHabits(viewer: ana).totalCount
                    let habit = try await habits.createHabit(
                        HabitDraft(title: "Habit \(index)", reason: nil, startsOn: CalendarDay(dayNumber: today.dayNumber - 10), plan: Weekday.allCases),
                        viewer: ana)
                    for back in 0...(index % 10) {
                        _ = try await habits.recordHabitEvent(
                            HabitEventDraft(habitID: habit.id, occurredOn: CalendarDay(dayNumber: today.dayNumber - back)), viewer: ana)
                    }
                }
            }
            try await add(2)
            let two = try await lists(fixture, as: ana)
            try await add(10)
            let twelve = try await lists(fixture, as: ana)
            guard case .array(let edges)? = twelve.result.data?["myHabits"]?["edges"] else {
                Issue.record("no page: \(String(describing: twelve.result.data))")
                return
            }
            #expect(edges.count == 12)
            let titles = edges.compactMap { edge -> String? in if case .string(let title)? = edge["node"]?["title"] { title } else { nil } }
            #expect(Set(titles) == Set((0..<12).map { "Habit \($0)" }))
            for edge in edges {
                // Each habit its own figures (the batch's answers are not mixed up).
                guard case .string(let title)? = edge["node"]?["title"], let index = Int(title.dropFirst("Habit ".count)) else { continue }
                let kept = index % 10 + 1
                #expect(edge["node"]?["adherence"]?["keptDays"] == .int(kept) && edge["node"]?["adherence"]?["plannedDays"] == 11, "habit \(index)")
                #expect(edge["node"]?["adherence"]?["currentStreak"] == .int(kept), "habit \(index)")
            }
            guard case .array(let todays)? = twelve.result.data?["todayHabits"] else {
                Issue.record("no today list")
                return
            }
            #expect(todays.count == 12 && todays.allSatisfy { $0["habit"]?["adherence"]?["isDoneToday"] == true && $0["isDoneToday"] == true })
            #expect(two.statements == twelve.statements, "statements for 2 habits: \(two.statements), for 12: \(twelve.statements)")
        }
    }
}
