import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Last writer wins, field by field, by the server's commit order (issue 17's conflict policy): two
/// devices editing the same object from the same stale copy each change only the fields they send,
/// and where both send a field, the later commit's value stays.
@Suite struct LastWriterWinsTests {
    @Test func eachEditWritesTheFieldsItNamesAndTheLaterCommitWins() async throws {
        try await HouseholdsHarness.with { h in
            let habits = HabitService(configuration: HabitsConfiguration(), households: h.service)
            let ana = try await h.confirmedViewer("ana")
            let habit = try await habits.createHabit(HabitDraft(title: "Run", reason: "Health", startsOn: CalendarDay("2026-09-01")!, plan: [.monday]), viewer: ana)
            // The phone renames it offline; the tablet, from the same copy, changes the reason and then the title.
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(title: "Run 5 km"), viewer: ana, clientMutationID: "phone-1")
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(reason: .some("Sleep better")), viewer: ana, clientMutationID: "tablet-1")
            var now = try await habits.habit(id: habit.id, viewer: ana)
            #expect(now.title == "Run 5 km" && now.reason == "Sleep better", "both edits kept: each wrote only its field")
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(title: "Jog"), viewer: ana, clientMutationID: "tablet-2")
            // The phone's queue is replayed late: its rename was applied first, so it changes nothing now.
            _ = try await habits.updateHabit(id: habit.id, HabitChanges(title: "Run 5 km"), viewer: ana, clientMutationID: "phone-1")
            now = try await habits.habit(id: habit.id, viewer: ana)
            #expect(now.title == "Jog", "the later commit's title stays")
        }
    }
}
