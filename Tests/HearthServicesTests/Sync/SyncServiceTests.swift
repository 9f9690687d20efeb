import FoundationEssentials
import HearthDomain
@testable import HearthServices
import TestFixtures
import Testing

/// The stream of `changes` on its own: cursors, the row limit at its edge, the page size at its
/// edge, and a scope's expansion resumed inside.
@Suite struct SyncServiceTests {
    private static let draft = HabitDraft(title: "Run", reason: nil, startsOn: CalendarDay("2026-09-01")!, plan: [.monday])

    private static func with(
        _ configure: (inout SyncConfiguration) -> Void = { _ in },
        _ body: (HouseholdsHarness, HabitService, SyncService) async throws -> Void
    ) async throws {
        try await HouseholdsHarness.with { harness in
            var configuration = SyncConfiguration()
            configure(&configuration)
            let habits = HabitService(configuration: HabitsConfiguration(), households: harness.service)
            try await body(harness, habits, SyncService(configuration: configuration, households: harness.service))
        }
    }

    /// Every page after `since` of `first`: the ids in order, the pages, and the cursor to continue from.
    private static func drain(
        _ sync: SyncService, since: String?, first: Int, viewer: Viewer
    ) async throws -> (ids: [String], pages: Int, cursor: String) {
        var page = try await sync.changes(since: since, first: first, viewer: viewer)
        var ids = page.entries.map(\.objectID), pages = 1
        while page.hasMore {
            page = try await sync.changes(since: page.endCursor.description, first: first, viewer: viewer)
            ids += page.entries.map(\.objectID)
            pages += 1
        }
        return (ids, pages, page.endCursor.description)
    }

    @Test(arguments: ["0", "12", "12/hab_x", "full/12", "full/12/hev_y"])
    func cursorsReadBackAsWritten(text: String) throws {
        #expect(try #require(SyncCursor(text)).description == text)
    }

    @Test(arguments: ["", "-1", "012", "12/", "full", "full/", "full/x", "12/a/b", "x/12", " 12"])
    func textNoCursorHasIsRefused(text: String) async throws {
        #expect(SyncCursor(text) == nil)
        try await Self.with { harness, _, sync in
            let ana = try await harness.confirmedViewer("ana")
            await #expect(throws: ServiceError.self) { try await sync.changes(since: text, first: 1, viewer: ana) }
        }
    }

    @Test func firstIsOneToTheMaximumInclusive() async throws {
        try await Self.with({ $0.maximumChangesPerPage = 2 }) { harness, habits, sync in
            let ana = try await harness.confirmedViewer("ana")
            for _ in 0..<3 { _ = try await habits.createHabit(Self.draft, viewer: ana) }
            #expect(try await sync.changes(since: nil, first: 2, viewer: ana).entries.count == 2)
            #expect(try await sync.changes(since: nil, first: 1, viewer: ana).entries.count == 1)
            for first in [0, 3] {
                await #expect(throws: ServiceError.self) { try await sync.changes(since: nil, first: first, viewer: ana) }
            }
        }
    }

    @Test func aPageReadsAtMostTheRowLimitAndTheNextOneContinues() async throws {
        try await Self.with({ $0.maximumRowsPerPage = 2 }) { harness, habits, sync in
            let ana = try await harness.confirmedViewer("ana")
            let start = try await Self.drain(sync, since: nil, first: 100, viewer: ana).cursor
            var created: [String] = []
            for _ in 0..<5 { created.append(try await habits.createHabit(Self.draft, viewer: ana).id) }
            let page = try await sync.changes(since: start, first: 100, viewer: ana)
            #expect(page.entries.map(\.objectID) == Array(created.prefix(2)) && page.hasMore)
            let all = try await Self.drain(sync, since: start, first: 100, viewer: ana)
            #expect(all.ids == created && all.pages == 3)
        }
    }

    @Test func aScopeGainedIsExpandedAcrossPagesWithoutLosingOrRepeatingAnObject() async throws {
        try await Self.with { harness, habits, sync in
            let ana = try await harness.confirmedViewer("ana"), ben = try await harness.confirmedViewer("ben")
            let follows = FollowService(configuration: FollowingConfiguration(), households: harness.service)
            var bens: [String] = []
            for _ in 0..<4 {
                let habit = try await habits.createHabit(Self.draft, viewer: ben)
                let event = try await habits.recordHabitEvent(HabitEventDraft(habitID: habit.id), viewer: ben)
                bens += [habit.id, event.id]
            }
            let start = try await Self.drain(sync, since: nil, first: 100, viewer: ana).cursor
            let request = try await follows.requestFollow(username: "ben", viewer: ana)
            _ = try await follows.acceptFollowRequest(id: request.id, viewer: ben)
            let paged = try await Self.drain(sync, since: start, first: 3, viewer: ana)
            let whole = try await Self.drain(sync, since: start, first: 100, viewer: ana)
            #expect(Set(whole.ids) == Set(bens + [request.id]) && whole.ids.count == bens.count + 1)
            #expect(paged.ids.sorted() == whole.ids.sorted() && paged.pages == 3, "nine objects in full pages of three")
        }
    }

    @Test func anObjectChangedOnPagesOneAndThreeComesOnlyOnThePageOfItsLastChange() async throws {
        try await Self.with { harness, habits, sync in
            let ana = try await harness.confirmedViewer("ana")
            let start = try await Self.drain(sync, since: nil, first: 100, viewer: ana).cursor
            var made: [String] = []
            for _ in 0..<4 { made.append(try await habits.createHabit(Self.draft, viewer: ana).id) }
            _ = try await habits.updateHabit(id: made[0], HabitChanges(title: "Run 5 km"), viewer: ana)
            // Pages of two once were [0, 1], [2, 3], [0]: the first habit leaves page one for the
            // page of its rename, and every page is full.
            let first = try await sync.changes(since: start, first: 2, viewer: ana)
            #expect(first.entries.map(\.objectID) == [made[1], made[2]] && first.hasMore)
            let second = try await sync.changes(since: first.endCursor.description, first: 2, viewer: ana)
            #expect(second.entries.map(\.objectID) == [made[3], made[0]] && !second.hasMore)
            #expect(try await sync.changes(since: second.endCursor.description, first: 2, viewer: ana).entries.isEmpty)
        }
    }

    @Test func aHabitHiddenAndShownAgainReachesAFollowerOnceWithEachEventWhateverThePageSize() async throws {
        try await Self.with { harness, habits, sync in
            let ana = try await harness.confirmedViewer("ana"), ben = try await harness.confirmedViewer("ben")
            let follows = FollowService(configuration: FollowingConfiguration(), households: harness.service)
            _ = try await follows.acceptFollowRequest(id: try await follows.requestFollow(username: "ben", viewer: ana).id, viewer: ben)
            var draft = Self.draft
            draft.visibility = .followers
            let habit = try await habits.createHabit(draft, viewer: ben).id
            var events: [String] = []
            for _ in 0..<12 { events.append(try await habits.recordHabitEvent(HabitEventDraft(habitID: habit), viewer: ben).id) }
            let start = try await Self.drain(sync, since: nil, first: 100, viewer: ana).cursor
            // Two rows of thirteen objects each: hidden (tombstones), then shown (upserts).
            _ = try await habits.updateHabit(id: habit, HabitChanges(visibility: .private), viewer: ben)
            _ = try await habits.updateHabit(id: habit, HabitChanges(visibility: .followers), viewer: ben)
            for first in [1, 5, 13, 100] {
                let read = try await Self.drain(sync, since: start, first: first, viewer: ana)
                #expect(read.ids.sorted() == ([habit] + events).sorted(), "pages of \(first): \(read.ids.count) entries")
            }
        }
    }
}
