import FoundationEssentials
import HearthDomain
@testable import HearthServices
import TestFixtures
import Testing

/// Shares of personal chores as an offline sync scope (`share:<id>`): a recipient receives the
/// shared chores, their instances and completions when the share starts reaching them, every change
/// of them while it does, and tombstones when it stops; nobody else receives anything of them.
@Suite struct SyncShareScopeTests {
    /// Calls `body` with a harness, its chore family and the sync service (made first: it registers
    /// the reactions recording the scopes).
    private static func with(_ body: (InstancesHarness, ChoreFamily, SyncService) async throws -> Void) async throws {
        try await InstancesHarness.with { h in
            let f = try await h.households.choreFamily()
            try await body(h, f, SyncService(configuration: SyncConfiguration(), households: h.households.service))
        }
    }

    /// A personal chore of Ben's shared with the family's household.
    private static func bensRunSharedWithTheHousehold(_ h: InstancesHarness, _ f: ChoreFamily) async throws -> (ChoreRecord, ChoreShareRecord) {
        let run = try await h.households.chore("Run", in: nil, by: f.member)
        return (run, try await h.chores.shareChores(NewChoreShare(selection: .chores([run.id]), recipient: .household(f.householdID)), viewer: f.member))
    }

    /// The ids in `viewer`'s changes after `since` (a full resync when `nil`), and the cursor after them.
    private static func changes(_ sync: SyncService, since: String?, viewer: Viewer) async throws -> (ids: Set<String>, cursor: String) {
        var page = try await sync.changes(since: since, first: 100, viewer: viewer)
        var ids = Set(page.entries.map(\.objectID))
        while page.hasMore {
            page = try await sync.changes(since: page.endCursor.description, first: 100, viewer: viewer)
            ids.formUnion(page.entries.map(\.objectID))
        }
        return (ids, page.endCursor.description)
    }

    /// Which of `ids` (chores, shares, instances, completions) `viewer` sees now, looked up as
    /// `node(id:)` does: the upserts of a page.
    private static func visible(_ ids: Set<String>, _ h: InstancesHarness, viewer: Viewer) async throws -> Set<String> {
        let chores = try await h.chores.nodes(ids: Array(ids), viewer: viewer).keys
        let instances = try await h.instances.nodes(ids: Array(ids), viewer: viewer).keys
        return Set(chores).union(instances)
    }

    @Test func anAccountsShareDeliversItsChoresWhenAcceptedTheirChangesAndTombstonesWhenItEnds() async throws {
        try await Self.with { h, f, sync in
            let due = h.clock.now.addingTimeInterval(3600)
            let run = try await h.households.chore("Run", in: nil, by: f.child) { $0.schedule = .once(due) }
            let diary = try await h.households.chore("Diary", in: nil, by: f.child)
            let start = try await Self.changes(sync, since: nil, viewer: f.outsider).cursor
            let share = try await h.chores.shareChores(
                NewChoreShare(selection: .chores([run.id]), recipient: .email("eve@example.com")), viewer: f.child)
            // Pending: nothing reaches her yet.
            var read = try await Self.changes(sync, since: start, viewer: f.outsider)
            #expect(read.ids.isEmpty)
            _ = try await h.chores.acceptShare(id: share.id, viewer: f.outsider)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isSuperset(of: [share.id, run.id]) && !read.ids.contains(diary.id))
            #expect(try await Self.visible(read.ids, h, viewer: f.outsider) == read.ids)

            // Changes of the shared chore arrive as upserts: its instance, a completion, an edit.
            _ = try await h.runDueJobs()
            let instanceID = h.instanceID(run, at: due)
            let completionID = try #require(try await h.complete(instanceID, as: f.child).completion?.id)
            _ = try await h.chores.updateChore(id: run.id, ChoreFields(title: "Run 5 km"), viewer: f.child)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isSuperset(of: [run.id, instanceID, completionID]))
            #expect(try await Self.visible(read.ids, h, viewer: f.outsider) == read.ids)
            // The owner's other personal chores: nothing.
            _ = try await h.chores.updateChore(id: diary.id, ChoreFields(title: "Journal"), viewer: f.child)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isEmpty)

            // The full resync holds the share and what it shows; a member of the owner's household, no recipient, gets none of it.
            let full = try await Self.changes(sync, since: nil, viewer: f.outsider).ids
            #expect(full.isSuperset(of: [share.id, run.id, instanceID, completionID]) && !full.contains(diary.id))
            let benSees = try await Self.changes(sync, since: nil, viewer: f.member).ids
            #expect(benSees.isDisjoint(with: [share.id, run.id, instanceID, completionID, diary.id]))

            // Revoked: tombstones of everything the share showed.
            _ = try await h.chores.revokeShare(id: share.id, viewer: f.child)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isSuperset(of: [share.id, run.id, instanceID, completionID]))
            #expect(try await Self.visible(read.ids, h, viewer: f.outsider).isEmpty)
            // Changes after the revocation reach her no more.
            _ = try await h.chores.updateChore(id: run.id, ChoreFields(title: "Run 10 km"), viewer: f.child)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isEmpty)

            // Shared again: delivered again.
            let again = try await h.chores.shareChores(
                NewChoreShare(selection: .chores([run.id]), recipient: .email("eve@example.com")), viewer: f.child)
            _ = try await h.chores.acceptShare(id: again.id, viewer: f.outsider)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isSuperset(of: [again.id, run.id, instanceID, completionID]))
            #expect(try await Self.visible([run.id, instanceID, completionID], h, viewer: f.outsider) == [run.id, instanceID, completionID])

            // The owner deletes the chore: its tombstone, and its instance's and completion's.
            _ = try await h.chores.deleteChore(id: run.id, viewer: f.child)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.outsider)
            #expect(read.ids.isSuperset(of: [run.id, instanceID, completionID]))
            #expect(try await Self.visible(read.ids, h, viewer: f.outsider).isEmpty)
        }
    }

    @Test func declinedAfterAcceptingIsAScopeLost() async throws {
        try await Self.with { h, f, sync in
            let run = try await h.households.chore("Run", in: nil, by: f.child)
            let share = try await h.chores.shareChores(
                NewChoreShare(selection: .chores([run.id]), recipient: .email("eve@example.com")), viewer: f.child)
            _ = try await h.chores.acceptShare(id: share.id, viewer: f.outsider)
            let cursor = try await Self.changes(sync, since: nil, viewer: f.outsider).cursor
            _ = try await h.chores.declineShare(id: share.id, viewer: f.outsider)
            let read = try await Self.changes(sync, since: cursor, viewer: f.outsider)
            #expect(read.ids.isSuperset(of: [share.id, run.id]))
            #expect(try await Self.visible(read.ids, h, viewer: f.outsider).isEmpty)
        }
    }

    @Test func aHouseholdsTagShareFollowsTheTagAndTheMembership() async throws {
        try await Self.with { h, f, sync in
            let fitness = try await h.chores.createTag(householdID: nil, name: "Fitness", viewer: f.admin).tag
            let run = try await h.households.chore("Run", in: nil, by: f.admin) { $0.tagIDs = [fitness.id] }
            let swim = try await h.households.chore("Swim", in: nil, by: f.admin)
            var ben = try await Self.changes(sync, since: nil, viewer: f.member).cursor
            var kim = try await Self.changes(sync, since: nil, viewer: f.child).cursor
            let share = try await h.chores.shareChores(NewChoreShare(selection: .tag(fitness.id), recipient: .household(f.householdID)), viewer: f.admin)
            var read = try await Self.changes(sync, since: ben, viewer: f.member)
            #expect(read.ids.isSuperset(of: [share.id, run.id]) && !read.ids.contains(swim.id))
            #expect(try await Self.visible([run.id], h, viewer: f.member) == [run.id])
            // Outside the household: nothing.
            #expect(try await Self.changes(sync, since: nil, viewer: f.outsider).ids.isDisjoint(with: [share.id, run.id, swim.id]))

            // The tag taken off: a tombstone; put on another chore: an upsert.
            _ = try await h.chores.updateChore(id: run.id, ChoreFields(tagIDs: []), viewer: f.admin)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.member)
            #expect(read.ids.contains(run.id))
            #expect(try await Self.visible([run.id], h, viewer: f.member).isEmpty)
            _ = try await h.chores.updateChore(id: swim.id, ChoreFields(tagIDs: [fitness.id]), viewer: f.admin)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.member)
            #expect(read.ids.contains(swim.id) && !read.ids.contains(run.id))
            #expect(try await Self.visible([swim.id], h, viewer: f.member) == [swim.id])
            ben = read.cursor

            // Ben leaves the household: tombstones for him, Kim keeps seeing it.
            _ = try await h.households.service.leaveHousehold(id: f.householdID, incompleteTasks: .unassign, viewer: f.member)
            read = try await Self.changes(sync, since: ben, viewer: f.member)
            #expect(read.ids.isSuperset(of: [share.id, swim.id]) && !read.ids.contains(run.id))
            #expect(try await Self.visible(read.ids, h, viewer: f.member).isEmpty)
            kim = try await Self.changes(sync, since: kim, viewer: f.child).cursor

            // The tag deleted, and its share with it: tombstones for Kim, the share's for its owner.
            let ana = try await Self.changes(sync, since: nil, viewer: f.admin).cursor
            _ = try await h.chores.deleteTag(id: fitness.id, viewer: f.admin)
            read = try await Self.changes(sync, since: kim, viewer: f.child)
            #expect(read.ids.isSuperset(of: [share.id, swim.id]))
            #expect(try await Self.visible(read.ids, h, viewer: f.child).isEmpty)
            #expect(try await Self.changes(sync, since: ana, viewer: f.admin).ids.contains(share.id))
        }
    }

    @Test func theOwnerLeavingTheHouseholdEndsItsShareForEveryMember() async throws {
        try await Self.with { h, f, sync in
            let (run, share) = try await Self.bensRunSharedWithTheHousehold(h, f)
            let cursor = try await Self.changes(sync, since: nil, viewer: f.child).cursor
            _ = try await h.households.service.leaveHousehold(id: f.householdID, incompleteTasks: .unassign, viewer: f.member)
            var read = try await Self.changes(sync, since: cursor, viewer: f.child)
            #expect(read.ids.isSuperset(of: [share.id, run.id]))
            #expect(try await Self.visible([run.id], h, viewer: f.child).isEmpty)
            // Back in the household: the share reaches the members again.
            h.clock.advance(seconds: 60)
            _ = try await h.households.join(f.member, f.householdID, invitedBy: f.admin)
            read = try await Self.changes(sync, since: read.cursor, viewer: f.child)
            #expect(read.ids.isSuperset(of: [share.id, run.id]))
            #expect(try await Self.visible([run.id], h, viewer: f.child) == [run.id])
        }
    }

    @Test func deletingTheHouseholdEndsItsSharesForItsMembers() async throws {
        try await Self.with { h, f, sync in
            let (run, share) = try await Self.bensRunSharedWithTheHousehold(h, f)
            let cursor = try await Self.changes(sync, since: nil, viewer: f.child).cursor
            let owners = try await Self.changes(sync, since: nil, viewer: f.member).cursor
            _ = try await h.households.service.deleteHousehold(id: f.householdID, confirmName: "Flat", viewer: f.admin)
            let read = try await Self.changes(sync, since: cursor, viewer: f.child)
            #expect(read.ids.isSuperset(of: [share.id, run.id]))
            #expect(try await Self.visible([share.id, run.id], h, viewer: f.child).isEmpty)
            // The owner keeps the chore, and learns the share is gone.
            #expect(try await Self.changes(sync, since: owners, viewer: f.member).ids.contains(share.id))
            #expect(try await Self.visible([share.id, run.id], h, viewer: f.member) == [run.id])
        }
    }

    @Test func aTagRenamedReachesTheRecipientsOfItsShareAndNoOneElse() async throws {
        try await Self.with { h, f, sync in
            let fitness = try await h.chores.createTag(householdID: nil, name: "Fitness", viewer: f.child).tag
            let run = try await h.households.chore("Run", in: nil, by: f.child) { $0.tagIDs = [fitness.id] }
            let byChore = try await h.chores.shareChores(
                NewChoreShare(selection: .chores([run.id]), recipient: .email("eve@example.com")), viewer: f.child)
            _ = try await h.chores.acceptShare(id: byChore.id, viewer: f.outsider)
            let byTag = try await h.chores.shareChores(NewChoreShare(selection: .tag(fitness.id), recipient: .household(f.householdID)), viewer: f.child)
            let eve = try await Self.changes(sync, since: nil, viewer: f.outsider).cursor
            let ben = try await Self.changes(sync, since: nil, viewer: f.member).cursor
            _ = try await h.chores.updateTag(id: fitness.id, name: "Sport", viewer: f.child)
            // Ben's share shows the tag's name; Eve's shows no tag (a shared chore's tags are not shown).
            #expect(try await Self.changes(sync, since: ben, viewer: f.member).ids == [byTag.id])
            #expect(try await h.chores.share(id: byTag.id, viewer: f.member).tagName == "Sport")
            #expect(try await Self.changes(sync, since: eve, viewer: f.outsider).ids.isEmpty)
        }
    }
}
