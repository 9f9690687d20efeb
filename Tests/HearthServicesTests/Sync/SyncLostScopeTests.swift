import FoundationEssentials
import HearthDomain
@testable import HearthServices
import TestFixtures
import Testing

/// A scope lost after the reader's cursor comes back as tombstones of what the reader could have
/// seen in it, and of nothing that came into it after the loss.
@Suite struct SyncLostScopeTests {
    private static let draft = HabitDraft(title: "Run", reason: nil, startsOn: CalendarDay("2026-09-01")!, plan: [.monday], visibility: .followers)

    @Test func aLostScopeIsReadUpToTheLossAndNamesNothingMadeInItAfterwards() async throws {
        try await HouseholdsHarness.with { harness in
            let sync = SyncService(configuration: SyncConfiguration(), households: harness.service)
            let follows = FollowService(configuration: FollowingConfiguration(), households: harness.service)
            let habits = HabitService(configuration: HabitsConfiguration(), households: harness.service)
            let ana = try await harness.confirmedViewer("ana"), ben = try await harness.confirmedViewer("ben")
            let kept = try await habits.createHabit(Self.draft, viewer: ben)
            let event = try await habits.recordHabitEvent(HabitEventDraft(habitID: kept.id), viewer: ben)
            let gone = try await habits.createHabit(Self.draft, viewer: ben)
            let follow = try await follows.requestFollow(username: "ben", viewer: ana)
            _ = try await follows.acceptFollowRequest(id: follow.id, viewer: ben)
            var page = try await sync.changes(since: nil, first: 100, viewer: ana)
            #expect(Set(page.entries.map(\.objectID)) == [kept.id, event.id, gone.id, follow.id, ana.userID] && !page.hasMore)
            let cursor = page.endCursor.description
            _ = try await follows.unfollow(id: follow.id, viewer: ana)
            // After the loss: a habit and an event ana never saw, and a delete of one she did.
            let made = try await habits.createHabit(Self.draft, viewer: ben)
            let madeEvent = try await habits.recordHabitEvent(HabitEventDraft(habitID: kept.id), viewer: ben)
            _ = try await habits.deleteHabit(id: gone.id, viewer: ben)
            // In pages of any size: rows after the loss (`kept` and `gone` are touched again there)
            // take nothing over from the rows the reader reads.
            for first in [1, 2, 100] {
                var ids: [String] = []
                page = try await sync.changes(since: cursor, first: first, viewer: ana)
                ids += page.entries.map(\.objectID)
                while page.hasMore {
                    page = try await sync.changes(since: page.endCursor.description, first: first, viewer: ana)
                    ids += page.entries.map(\.objectID)
                }
                #expect(ids.sorted() == [kept.id, event.id, gone.id, follow.id].sorted(), "pages of \(first): \(ids)")
                #expect(!ids.contains { [made.id, madeEvent.id].contains($0) })
            }
        }
    }
}
